// The app shell's last words when a handler traps (a Swift runtime error:
// an out-of-range index, a force-unwrapped nil…): a signal handler for
// SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE and SIGABRT that writes
// "APP: handler 'NAME' crashed (signal N)" to stderr with write(2) (async-
// signal-safe) and then lets the signal take its default action (the core
// dump, the exit status a service manager sees and restarts on).
#ifndef FBR_TRAP_LOG_H
#define FBR_TRAP_LOG_H

// Installs the handlers; `app` (copied, up to 63 bytes) prefixes the line.
void fbr_trap_log_install(const char *app);

// Names the handler running now (copied, up to 127 bytes); NULL: none
// (the line then says "outside any handler"). App thread only.
void fbr_trap_log_enter(const char *handler);

#endif
