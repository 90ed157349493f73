/*
 * fault.h - I/O fault injection for the test build `berthierd-faulty` only
 * (compiled with BERTHIERD_FAULTS; the real berthierd has an empty stub).
 *
 * $BERTHIERD_FAULT = comma-separated items:
 *   write=N       the Nth log write fails with ENOSPC
 *   fdatasync=N   the Nth log fdatasync fails with EIO
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
