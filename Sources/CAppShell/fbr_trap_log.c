#include "fbr_trap_log.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

static char app_name[64];
static char handler_name[128];
static volatile sig_atomic_t in_handler;

static void put(const char *s) { (void)!write(2, s, strlen(s)); }

static void on_fatal_signal(int sig) {
    char number[12];
    int n = sig, i = (int)sizeof number - 1;
    number[i] = 0;
    do { number[--i] = (char)('0' + n % 10); n /= 10; } while (n > 0 && i > 0);
    put(app_name);
    if (in_handler) { put(": handler '"); put(handler_name); put("' crashed (signal "); }
    else put(": crashed outside any handler (signal ");
    put(number + i);
    put(")\n");
    signal(sig, SIG_DFL);   // the default action: the exit status a service manager sees
    raise(sig);
}

void fbr_trap_log_install(const char *app) {
    strncpy(app_name, app ? app : "app", sizeof app_name - 1);
    static const int signals[] = { SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_fatal_signal;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
}

void fbr_trap_log_enter(const char *handler) {
    if (!handler) { in_handler = 0; return; }
    strncpy(handler_name, handler, sizeof handler_name - 1);
    handler_name[sizeof handler_name - 1] = 0;
    in_handler = 1;
}
