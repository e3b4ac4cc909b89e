// What FBRuntime's clients see besides its own types: the system layer
// (threads, locks, system errors) and text (fonts, layout), each a module
// of its own (see Package.swift), so that an app imports FBRuntime alone.
@_exported import FBPlatform
@_exported import FBText
