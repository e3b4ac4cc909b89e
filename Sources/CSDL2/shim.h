// CSDL2: SDL2 for the desktop simulator (fbsim, host only). The function-
// like macros Swift cannot import, as static inline functions.
#ifndef FBR_CSDL2_SHIM_H
#define FBR_CSDL2_SHIM_H
#define SDL_MAIN_HANDLED 1
#include <SDL.h>

static inline int fbr_sdl_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline uint32_t fbr_sdl_init_video(void) { return SDL_INIT_VIDEO; }
/// XRGB8888 in memory order B, G, R, X (SDL calls it RGB888).
static inline uint32_t fbr_sdl_pixelformat_xrgb8888(void) { return SDL_PIXELFORMAT_RGB888; }
static inline uint32_t fbr_sdl_button_left(void) { return SDL_BUTTON_LEFT; }
static inline uint32_t fbr_sdl_button_lmask(void) { return SDL_BUTTON_LMASK; }
#endif
