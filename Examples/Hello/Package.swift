// swift-tools-version:6.2
// Hello: the smallest FBRuntime app, a button that counts taps.
//
//   swift run hello                      # KMS, else fbdev, else headless
//   swift run hello --headless --frames 40 --tap 240,160 --out out/hello
import PackageDescription

let package = Package(
    name: "Hello",
    dependencies: [.package(name: "FBRuntime", path: "../..")],   // FBRuntime (use a URL and version in your own app)
    targets: [
        .executableTarget(name: "hello", dependencies: [
            .product(name: "AppShell", package: "FBRuntime"),
            .product(name: "FBRuntime", package: "FBRuntime"),
        ], path: "Sources/Hello"),
    ]
)
