// CAppShell: the desktop simulator's window for the app shell, through SDL2
// loaded at run time (dlopen), so no program links SDL: on a host with SDL2
// and an X11 or Wayland display an app opens a window; on a board, or where
// SDL is missing, fbr_sim_open says why and the shell falls back to
// headless. Built without SDL's headers (the board's sysroot has none),
// every function reports "unavailable".
//
// One window per process. Every function but fbr_sim_wake must be called
// on the thread that opened the window (SDL's video functions and Xlib
// belong to it); fbr_sim_wake may be called from any thread.
#ifndef FBR_SIM_WINDOW_H
#define FBR_SIM_WINDOW_H
#include <stdint.h>

enum fbr_sim_event_type {
    FBR_SIM_QUIT = 1,         // the window was closed, or Escape pressed
    FBR_SIM_BUTTON_DOWN = 2,  // left button pressed at x, y (frame pixels)
    FBR_SIM_MOTION = 3,       // the mouse moved to x, y (button held or not: `pressed`)
    FBR_SIM_BUTTON_UP = 4,    // left button released at x, y
    FBR_SIM_FRAME = 5,        // fbr_sim_wake was called: a frame is waiting
    FBR_SIM_EXPOSE = 6,       // the window needs presenting again
    FBR_SIM_KEY = 7,          // a key pressed or released (`pressed`), Linux evdev `code`
    FBR_SIM_WHEEL = 8,        // the mouse wheel turned: `code` in 1/120 detents, positive down (libinput's sign)
};

typedef struct fbr_sim_event {
    int type;
    int x, y;      // frame pixels, clamped to the frame
    int pressed;   // FBR_SIM_MOTION: the left button is down; FBR_SIM_KEY: pressed, not released
    int code;      // FBR_SIM_KEY: the key as a Linux evdev code (KEY_TAB 15, …); FBR_SIM_WHEEL: 1/120 detents
    uint64_t time_us;  // when the event was read, CLOCK_MONOTONIC microseconds
} fbr_sim_event;

// Opens a width x height window titled `title` with a streaming XRGB8888
// texture. Returns 1, or 0 with a reason in `error` (no SDL2 library, no
// display, SDL_Init or window creation failed).
int fbr_sim_open(int width, int height, const char *title, char *error, int error_length);

// Copies the rect (x, y, w, h) of `pixels` (XRGB8888, `stride` bytes a row,
// the whole frame) into the texture, then presents the window.
void fbr_sim_present(const uint32_t *pixels, int stride, int x, int y, int w, int h);

// Presents the window again as it is (an expose).
void fbr_sim_refresh(void);

// Waits up to timeout_ms for events and stores up to `max` of them;
// returns how many.
int fbr_sim_wait(int timeout_ms, fbr_sim_event *events, int max);

// Wakes fbr_sim_wait with FBR_SIM_FRAME (any thread).
void fbr_sim_wake(void);

void fbr_sim_close(void);

#endif
