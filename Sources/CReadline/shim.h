// GNU readline and its history library (Debian: libreadline-dev).
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <readline/readline.h>
#include <readline/history.h>

// Readline is configured through global variables. Swift 6 refuses to touch
// mutable C globals directly, so these small functions do it; they hold no
// state of their own.

/// Completion, input and signal settings for the REPL.
static inline void kcs_rl_configure(const char *name, const char *word_breaks,
                                    rl_completion_func_t *complete, rl_getc_func_t *getc) {
    rl_readline_name = name;
    rl_completer_word_break_characters = word_breaks;
    rl_attempted_completion_function = complete;
    rl_getc_function = getc;
    // Ctrl-C is ours: it abandons the line instead of ending the process.
    rl_catch_signals = 0;
}

/// The line being edited, for completion.
static inline const char *kcs_rl_line_buffer(void) { return rl_line_buffer; }

/// Inside a completion: we answered, so no file-name fallback; and whether
/// to append a space after a unique match.
static inline void kcs_rl_completion_answered(int suppress_append) {
    rl_attempted_completion_over = 1;
    rl_completion_suppress_append = suppress_append;
}

/// Ctrl-C: put the cursor at the end so the abandoned line stays visible.
static inline void kcs_rl_point_to_end(void) { rl_point = rl_end; }

/// A handler without SA_RESTART, so a blocked read returns EINTR; the
/// signal unblocked, since a parent may have started us with it blocked.
static inline int kcs_install_signal(int sig, void (*handler)(int)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    if (sigaction(sig, &sa, NULL) != 0) return -1;
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    return sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

/// SIGINT: Ctrl-C abandons the line.
static inline int kcs_install_sigint(void (*handler)(int)) { return kcs_install_signal(SIGINT, handler); }

/// SIGHUP and SIGTERM: the terminal closed or the session is asked to end;
/// the REPL finishes its read and saves its history instead of dying.
static inline int kcs_install_hangup(void (*handler)(int)) {
    if (kcs_install_signal(SIGHUP, handler) != 0) return -1;
    return kcs_install_signal(SIGTERM, handler);
}
