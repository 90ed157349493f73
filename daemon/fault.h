/*
 * fault.h - I/O fault injection for the test build `berthierd-faulty` only
 * (compiled with BERTHIERD_FAULTS; the real berthierd has an empty stub).
 *
 * Every write and fdatasync of the game logs and of the daemon's journal
 * (daemon/journal.c, which uses the same I/O shim) is counted, in the order
 * they happen; with the journal on, a commit round's one fdatasync is the
 * journal's, and a log's own fdatasync comes at a cut, a game's end or a stop.
 *
 * $BERTHIERD_FAULT = comma-separated items:
 *   write=N       the Nth log or journal write fails with ENOSPC
 *   fdatasync=N   the Nth log or journal fdatasync fails with EIO
 *   tear          a failing write first writes half its bytes (a torn write)
 *   persistent    every call from the Nth on fails, not only the Nth
 *   gate=DIR      while DIR/hold exists, the Nth log fdatasync creates
 *                 DIR/wait.N and waits until DIR/go.N exists or DIR/hold is
 *                 removed (tests that must see a round stopped in its sync)
 *   gate-after    the gate stops each fdatasync after it returned instead of
 *                 before (tests that kill the daemon once a batch is durable
 *                 and before its reply left)
 */
#ifndef BERTHIERD_FAULT_H
#define BERTHIERD_FAULT_H

void fault_install(void);

#endif
