import CSDL2

/// SDL's scancodes (USB HID usage IDs, the key's place on the keyboard) →
/// the kernel's KEY_* codes (linux/input-event-codes.h), which the
/// runtime's key events carry on the board (`InputEvent.key`). Keys not
/// listed map to nil and are ignored.
enum KeyCodes {
    static func linuxCode(_ scancode: SDL_Scancode) -> UInt32? {
        let s = Int(scancode.rawValue)
        switch s {
        case 4...29:   // A…Z, in HID order; the kernel's follow the keyboard rows
            let letters: [UInt32] = [30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50,   // a b c d e f g h i j k l m
                                     49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44]   // n o p q r s t u v w x y z
            return letters[s - 4]
        case 30...38: return UInt32(s - 30 + 2)   // 1…9 → KEY_1 (2)…KEY_9 (10)
        case 39: return 11                        // 0
        case 40: return 28                        // Return → KEY_ENTER
        case 41: return 1                         // Escape → KEY_ESC
        case 42: return 14                        // Backspace
        case 43: return 15                        // Tab
        case 44: return 57                        // Space
        case 79: return 106                       // Right
        case 80: return 105                       // Left
        case 81: return 108                       // Down
        case 82: return 103                       // Up
        case 58...67: return UInt32(s - 58 + 59)  // F1…F10 → KEY_F1 (59)…KEY_F10 (68)
        case 102: return 116                      // Power → KEY_POWER
        case 127: return 113                      // Mute
        case 128: return 115                      // Volume up
        case 129: return 114                      // Volume down
        case 224: return 29                       // Left Ctrl
        case 225: return 42                       // Left Shift
        case 226: return 56                       // Left Alt
        default: return nil
        }
    }
}
