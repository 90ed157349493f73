/*
 * log.h - diagnostics on stderr in the format journald understands: every
 * line starts with a syslog priority in angle brackets ("<6>" info, "<4>"
 * warning, "<3>" error, "<2>" critical).
 *
 * fatal() is for broken invariants only. Nothing a client sends may reach it.
 */
#ifndef BERTHIERD_LOG_H
#define BERTHIERD_LOG_H

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
