// CXKBCommon: libxkbcommon, keymaps (evdev key codes to keysyms and text)
// and compose tables (dead keys, the Compose key). Plain C API; nothing
// needs wrapping.
#ifndef FBR_CXKBCOMMON_SHIM_H
#define FBR_CXKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
#endif
