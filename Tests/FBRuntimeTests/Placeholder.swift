// Keeps the FBRuntimeTests target (declared in Package.swift) buildable until
// the runtime has tests of its own; git does not track empty folders.
import XCTest
