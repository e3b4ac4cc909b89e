// CCairo: cairo's image backend, used only by the tests as an outside
// second opinion on path coverage (and as the speed yardstick).
#ifndef FBR_CCAIRO_SHIM_H
#define FBR_CCAIRO_SHIM_H
#include <cairo.h>
#endif
