// fontconfig through dlopen, with the few declarations it needs written
// here (its ABI has been stable since 2.x): the board's sysroot has no
// fontconfig headers, and a board image may have no fontconfig at all.
#include "fbr_font_lookup.h"
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef struct FcPattern FcPattern;
typedef struct FcCharSet FcCharSet;
typedef struct FcConfig FcConfig;
typedef int FcBool;
typedef unsigned char FcChar8;
typedef uint32_t FcChar32;
typedef enum { FcMatchPattern = 0 } FcMatchKind;
typedef enum { FcResultMatch = 0 } FcResult;

#define FBR_FC_WEIGHT_REGULAR 80
#define FBR_FC_WEIGHT_BOLD 200
#define FBR_FC_SLANT_ROMAN 0
#define FBR_FC_SLANT_ITALIC 100

static FcBool (*p_FcInit)(void);
static FcPattern *(*p_FcPatternCreate)(void);
static void (*p_FcPatternDestroy)(FcPattern *);
static FcBool (*p_FcPatternAddString)(FcPattern *, const char *, const FcChar8 *);
static FcBool (*p_FcPatternAddInteger)(FcPattern *, const char *, int);
static FcBool (*p_FcPatternAddCharSet)(FcPattern *, const char *, const FcCharSet *);
static FcResult (*p_FcPatternGetString)(const FcPattern *, const char *, int, FcChar8 **);
static FcResult (*p_FcPatternGetCharSet)(const FcPattern *, const char *, int, FcCharSet **);
static FcBool (*p_FcConfigSubstitute)(FcConfig *, FcPattern *, FcMatchKind);
static void (*p_FcDefaultSubstitute)(FcPattern *);
static FcPattern *(*p_FcFontMatch)(FcConfig *, FcPattern *, FcResult *);
static FcCharSet *(*p_FcCharSetCreate)(void);
static void (*p_FcCharSetDestroy)(FcCharSet *);
static FcBool (*p_FcCharSetAddChar)(FcCharSet *, FcChar32);
static FcBool (*p_FcCharSetHasChar)(const FcCharSet *, FcChar32);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int available;
// fontconfig's default configuration is not safe to use from two threads
// at once before 2.13.9x everywhere; one lookup at a time.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void) {
    void *library = dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FBR_FC(name) \
    p_##name = (__typeof__(p_##name))dlsym(library, #name); \
    if (!p_##name) return;
    FBR_FC(FcInit) FBR_FC(FcPatternCreate) FBR_FC(FcPatternDestroy) FBR_FC(FcPatternAddString)
    FBR_FC(FcPatternAddInteger) FBR_FC(FcPatternAddCharSet) FBR_FC(FcPatternGetString)
    FBR_FC(FcPatternGetCharSet) FBR_FC(FcConfigSubstitute) FBR_FC(FcDefaultSubstitute) FBR_FC(FcFontMatch)
    FBR_FC(FcCharSetCreate) FBR_FC(FcCharSetDestroy) FBR_FC(FcCharSetAddChar) FBR_FC(FcCharSetHasChar)
#undef FBR_FC
    available = p_FcInit() ? 1 : 0;
}

static int copy_string(const FcChar8 *s, char *out, size_t capacity) {
    size_t n = strlen((const char *)s);
    if (n + 1 > capacity) return 0;
    memcpy(out, s, n + 1);
    return 1;
}

/// Matches `pattern` (consumed); copies the file (and family) of the match.
/// With `scalar` nonzero, the match must have it in its character set.
static int match(FcPattern *pattern, uint32_t scalar, char *path, size_t path_capacity,
                 char *family, size_t family_capacity) {
    p_FcConfigSubstitute(NULL, pattern, FcMatchPattern);
    p_FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern *found = p_FcFontMatch(NULL, pattern, &result);
    p_FcPatternDestroy(pattern);
    if (!found) return FBR_FONT_LOOKUP_NONE;
    int status = FBR_FONT_LOOKUP_NONE;
    FcChar8 *file = NULL, *name = NULL;
    FcCharSet *charset = NULL;
    if (p_FcPatternGetString(found, "file", 0, &file) == FcResultMatch && file
        && (scalar == 0 || (p_FcPatternGetCharSet(found, "charset", 0, &charset) == FcResultMatch && charset
                            && p_FcCharSetHasChar(charset, scalar)))
        && copy_string(file, path, path_capacity)) {
        status = FBR_FONT_LOOKUP_FOUND;
        if (family && family_capacity > 0) {
            family[0] = 0;
            if (p_FcPatternGetString(found, "family", 0, &name) == FcResultMatch && name)
                copy_string(name, family, family_capacity);
        }
    }
    p_FcPatternDestroy(found);
    return status;
}

static FcPattern *styled(const char *family, int bold, int italic) {
    FcPattern *pattern = p_FcPatternCreate();
    if (!pattern) return NULL;
    if (family && family[0]) p_FcPatternAddString(pattern, "family", (const FcChar8 *)family);
    p_FcPatternAddInteger(pattern, "weight", bold ? FBR_FC_WEIGHT_BOLD : FBR_FC_WEIGHT_REGULAR);
    p_FcPatternAddInteger(pattern, "slant", italic ? FBR_FC_SLANT_ITALIC : FBR_FC_SLANT_ROMAN);
    return pattern;
}

int fbr_font_lookup_family(const char *family, int bold, int italic,
                           char *path, size_t path_capacity,
                           char *matched_family, size_t family_capacity) {
    pthread_once(&once, load);
    if (!available) return FBR_FONT_LOOKUP_UNAVAILABLE;
    pthread_mutex_lock(&lock);
    int status = FBR_FONT_LOOKUP_NONE;
    FcPattern *pattern = styled(family, bold, italic);
    if (pattern) status = match(pattern, 0, path, path_capacity, matched_family, family_capacity);
    pthread_mutex_unlock(&lock);
    return status;
}

static int lookup_character(uint32_t scalar, const char *family, int bold, int italic, char *path, size_t path_capacity) {
    int status = FBR_FONT_LOOKUP_NONE;
    FcPattern *pattern = styled(family, bold, italic);
    FcCharSet *charset = p_FcCharSetCreate();
    if (pattern && charset && p_FcCharSetAddChar(charset, scalar) && p_FcPatternAddCharSet(pattern, "charset", charset)) {
        status = match(pattern, scalar, path, path_capacity, NULL, 0);
        pattern = NULL;
    }
    if (pattern) p_FcPatternDestroy(pattern);
    if (charset) p_FcCharSetDestroy(charset);
    return status;
}

int fbr_font_lookup_character(uint32_t scalar, const char *family, int bold, int italic,
                              char *path, size_t path_capacity) {
    pthread_once(&once, load);
    if (!available) return FBR_FONT_LOOKUP_UNAVAILABLE;
    if (scalar == 0) return FBR_FONT_LOOKUP_NONE;
    pthread_mutex_lock(&lock);
    int status = lookup_character(scalar, family, bold, italic, path, path_capacity);
    // The family can outweigh the character set in fontconfig's match:
    // then any family that has the character.
    if (status == FBR_FONT_LOOKUP_NONE && family && family[0])
        status = lookup_character(scalar, NULL, bold, italic, path, path_capacity);
    pthread_mutex_unlock(&lock);
    return status;
}
