#include "fbr_sim_window.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<SDL2/SDL.h>) && defined(__linux__)
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <dlfcn.h>
#include <time.h>

// SDL's functions, looked up in libSDL2-2.0.so.0 at open.
#define FBR_SDL_FUNCTIONS(X) \
    X(SDL_SetHint) X(SDL_Init) X(SDL_Quit) X(SDL_GetError) X(SDL_CreateWindow) X(SDL_DestroyWindow) \
    X(SDL_CreateRenderer) X(SDL_DestroyRenderer) X(SDL_CreateTexture) X(SDL_DestroyTexture) \
    X(SDL_UpdateTexture) X(SDL_RenderClear) X(SDL_RenderCopy) X(SDL_RenderPresent) \
    X(SDL_WaitEventTimeout) X(SDL_PollEvent) X(SDL_PushEvent) X(SDL_RegisterEvents)
#define FBR_DECLARE(name) static __typeof__(&name) p_##name;
FBR_SDL_FUNCTIONS(FBR_DECLARE)

static void *library;
static SDL_Window *window;
static SDL_Renderer *renderer;
static SDL_Texture *texture;
static int frame_width, frame_height;
static uint32_t frame_event;
static int button_down;

static void set_error(char *error, int length, const char *what, const char *why) {
    if (error && length > 0) snprintf(error, (size_t)length, "%s%s%s", what, why ? ": " : "", why ? why : "");
}

int fbr_sim_open(int width, int height, const char *title, char *error, int error_length) {
    if (window) { set_error(error, error_length, "a window is open already", NULL); return 0; }
    if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
        set_error(error, error_length, "no X11 or Wayland display (DISPLAY, WAYLAND_DISPLAY)", NULL);
        return 0;
    }
    if (!library) {
        library = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!library) { set_error(error, error_length, "no SDL2 library", dlerror()); return 0; }
#define FBR_LOOKUP(name) \
        p_##name = (__typeof__(&name))dlsym(library, #name); \
        if (!p_##name) { set_error(error, error_length, "SDL2 lacks " #name, NULL); dlclose(library); library = NULL; return 0; }
        FBR_SDL_FUNCTIONS(FBR_LOOKUP)
    }
    p_SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");   // SIGINT/SIGTERM stay the shell's
    p_SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    if (p_SDL_Init(SDL_INIT_VIDEO) != 0) { set_error(error, error_length, "SDL_Init", p_SDL_GetError()); return 0; }
    window = p_SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width, height, SDL_WINDOW_SHOWN);
    if (window) renderer = p_SDL_CreateRenderer(window, -1, 0);
    if (renderer) texture = p_SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, width, height);
    if (!texture) {
        set_error(error, error_length, "SDL window", p_SDL_GetError());
        fbr_sim_close();
        return 0;
    }
    frame_width = width;
    frame_height = height;
    frame_event = p_SDL_RegisterEvents(1);
    p_SDL_RenderClear(renderer);
    p_SDL_RenderPresent(renderer);
    return 1;
}

void fbr_sim_present(const uint32_t *pixels, int stride, int x, int y, int w, int h) {
    if (!texture || w <= 0 || h <= 0) return;
    SDL_Rect r = { x, y, w, h };
    p_SDL_UpdateTexture(texture, &r, (const uint8_t *)pixels + (size_t)y * (size_t)stride + (size_t)x * 4, stride);
    fbr_sim_refresh();
}

void fbr_sim_refresh(void) {
    if (!renderer) return;
    p_SDL_RenderClear(renderer);
    p_SDL_RenderCopy(renderer, texture, NULL, NULL);
    p_SDL_RenderPresent(renderer);
}

static int clamp(int v, int limit) { return v < 0 ? 0 : v >= limit ? limit - 1 : v; }

// The Linux evdev code (linux/input-event-codes.h) of an SDL scancode, for
// the keys an appliance keypad and a typing keyboard's main block have
// (letters, digits, punctuation, the modifiers a keymap reads: Shift, Ctrl,
// Alt, AltGr, Caps Lock); 0 for the rest. Both name a key by its place, not
// its label, so the board's keymap (its keyboard-layout) types on the
// desktop keyboard as on the board's. The board gets evdev codes from
// libinput, so the simulator hands the app the same numbers.
static int evdev_code(SDL_Scancode s) {
    static const unsigned char letters[26] = {   // SDL_SCANCODE_A … Z
        30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44 };
    if (s >= SDL_SCANCODE_A && s <= SDL_SCANCODE_Z) return letters[s - SDL_SCANCODE_A];
    if (s >= SDL_SCANCODE_1 && s <= SDL_SCANCODE_9) return 2 + (s - SDL_SCANCODE_1);
    switch (s) {
    case SDL_SCANCODE_0: return 11;
    case SDL_SCANCODE_RETURN: return 28;
    case SDL_SCANCODE_KP_ENTER: return 96;
    case SDL_SCANCODE_BACKSPACE: return 14;
    case SDL_SCANCODE_TAB: return 15;
    case SDL_SCANCODE_SPACE: return 57;
    case SDL_SCANCODE_UP: return 103;
    case SDL_SCANCODE_LEFT: return 105;
    case SDL_SCANCODE_RIGHT: return 106;
    case SDL_SCANCODE_DOWN: return 108;
    case SDL_SCANCODE_LSHIFT: return 42;
    case SDL_SCANCODE_RSHIFT: return 54;
    case SDL_SCANCODE_MINUS: return 12;
    case SDL_SCANCODE_EQUALS: return 13;
    case SDL_SCANCODE_LEFTBRACKET: return 26;
    case SDL_SCANCODE_RIGHTBRACKET: return 27;
    case SDL_SCANCODE_SEMICOLON: return 39;
    case SDL_SCANCODE_APOSTROPHE: return 40;
    case SDL_SCANCODE_GRAVE: return 41;
    case SDL_SCANCODE_BACKSLASH: return 43;
    case SDL_SCANCODE_NONUSHASH: return 43;
    case SDL_SCANCODE_COMMA: return 51;
    case SDL_SCANCODE_PERIOD: return 52;
    case SDL_SCANCODE_SLASH: return 53;
    case SDL_SCANCODE_NONUSBACKSLASH: return 86;   // KEY_102ND: < > | on a German keyboard
    case SDL_SCANCODE_LCTRL: return 29;
    case SDL_SCANCODE_RCTRL: return 97;
    case SDL_SCANCODE_LALT: return 56;
    case SDL_SCANCODE_RALT: return 100;            // AltGr
    case SDL_SCANCODE_CAPSLOCK: return 58;
    default: return 0;
    }
}

static int translate(const SDL_Event *e, fbr_sim_event *out) {
    memset(out, 0, sizeof *out);
    // When the event reached us, on CLOCK_MONOTONIC (the runtime's media
    // clock; SDL's own timestamps count from SDL_Init).
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    out->time_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (e->type == frame_event) { out->type = FBR_SIM_FRAME; return 1; }
    switch (e->type) {
    case SDL_QUIT: out->type = FBR_SIM_QUIT; return 1;
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        if (e->key.keysym.sym == SDLK_ESCAPE) {
            if (e->type == SDL_KEYUP) return 0;
            out->type = FBR_SIM_QUIT;
            return 1;
        }
        out->code = evdev_code(e->key.keysym.scancode);
        if (out->code == 0) return 0;
        out->type = FBR_SIM_KEY;
        out->pressed = e->type == SDL_KEYDOWN;
        return 1;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_EXPOSED || e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            out->type = FBR_SIM_EXPOSE;
            return 1;
        }
        return 0;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button != SDL_BUTTON_LEFT || button_down) return 0;
        button_down = 1;
        out->type = FBR_SIM_BUTTON_DOWN;
        out->x = clamp(e->button.x, frame_width); out->y = clamp(e->button.y, frame_height);
        return 1;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button != SDL_BUTTON_LEFT || !button_down) return 0;
        button_down = 0;
        out->type = FBR_SIM_BUTTON_UP;
        out->x = clamp(e->button.x, frame_width); out->y = clamp(e->button.y, frame_height);
        return 1;
    case SDL_MOUSEWHEEL:
        if (e->wheel.y == 0) return 0;
        out->type = FBR_SIM_WHEEL;
        // SDL counts away from the user as positive; libinput, and so the
        // app, down.
        out->code = (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? 1 : -1) * e->wheel.y * 120;
        return 1;
    case SDL_MOUSEMOTION:
        out->type = FBR_SIM_MOTION;
        out->x = clamp(e->motion.x, frame_width); out->y = clamp(e->motion.y, frame_height);
        out->pressed = button_down;
        return 1;
    default:
        return 0;
    }
}

int fbr_sim_wait(int timeout_ms, fbr_sim_event *events, int max) {
    if (!window || max <= 0) return 0;
    SDL_Event e;
    int n = 0;
    if (p_SDL_WaitEventTimeout(&e, timeout_ms < 0 ? 0 : timeout_ms)) {
        do {
            if (translate(&e, &events[n])) n++;
        } while (n < max && p_SDL_PollEvent(&e));
    }
    return n;
}

void fbr_sim_wake(void) {
    if (!window) return;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = frame_event;
    p_SDL_PushEvent(&e);
}

void fbr_sim_close(void) {
    if (texture) p_SDL_DestroyTexture(texture);
    if (renderer) p_SDL_DestroyRenderer(renderer);
    if (window) p_SDL_DestroyWindow(window);
    if (library && p_SDL_Quit) p_SDL_Quit();
    texture = NULL; renderer = NULL; window = NULL;
}

#else   // no SDL headers: the board build

int fbr_sim_open(int width, int height, const char *title, char *error, int error_length) {
    (void)width; (void)height; (void)title;
    if (error && error_length > 0) snprintf(error, (size_t)error_length, "built without the desktop simulator (no SDL2 headers)");
    return 0;
}
void fbr_sim_present(const uint32_t *pixels, int stride, int x, int y, int w, int h) {
    (void)pixels; (void)stride; (void)x; (void)y; (void)w; (void)h;
}
void fbr_sim_refresh(void) {}
int fbr_sim_wait(int timeout_ms, fbr_sim_event *events, int max) { (void)timeout_ms; (void)events; (void)max; return 0; }
void fbr_sim_wake(void) {}
void fbr_sim_close(void) {}

#endif
