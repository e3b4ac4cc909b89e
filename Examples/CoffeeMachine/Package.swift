// swift-tools-version:6.2
// CoffeeMachine: an appliance panel over FBRuntime's app shell, structured
// as a product team would: the machine's logic in a library with its own
// tests (CoffeeModel, no UI), the panel (CoffeeMachine) in pages, widgets
// and a theme.
//
//   swift run coffee                         # KMS, else fbdev, else headless
//   swift run coffee --headless --frames 90 --tap 240,104 --tap 240,272 --out out/coffee
//   swift test                               # the model's tests
import PackageDescription

let package = Package(
    name: "CoffeeMachine",
    dependencies: [.package(name: "FBRuntime", path: "../..")],   // use a URL and version in your own app
    targets: [
        .target(name: "CoffeeModel", path: "Sources/CoffeeModel"),
        .executableTarget(name: "coffee", dependencies: [
            "CoffeeModel",
            .product(name: "AppShell", package: "FBRuntime"),
            .product(name: "FBRuntime", package: "FBRuntime"),
            .product(name: "ImageIO", package: "FBRuntime"),
            .product(name: "Raster", package: "FBRuntime"),
        ], path: "Sources/CoffeeMachine"),
        .testTarget(name: "CoffeeModelTests", dependencies: ["CoffeeModel"], path: "Tests/CoffeeModelTests"),
    ]
)
