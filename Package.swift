// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Sharing",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Sharing", targets: ["Sharing"]),
    .library(name: "SharingDependencies", targets: ["SharingDependencies"]),
    .library(name: "SharingCore", targets: ["SharingCore"]),
    .library(name: "SharingPersistence", targets: ["SharingPersistence"]),
    .library(name: "SharingTesting", targets: ["SharingTesting"]),
  ],
  targets: [
    // MARK: Library modules (SPEC §2: arrows only point down this list)
    .target(name: "SharingDependencies"),
    .target(name: "SharingCore", dependencies: ["SharingDependencies"]),
    .target(name: "SharingPersistence", dependencies: ["SharingCore", "SharingDependencies"]),
    .target(
      name: "SharingTesting",
      dependencies: ["SharingPersistence", "SharingCore", "SharingDependencies"]
    ),
    .target(
      name: "Sharing",
      dependencies: ["SharingDependencies", "SharingCore", "SharingPersistence"]
    ),

    // MARK: Tests, one target per module
    .testTarget(
      name: "SharingDependenciesTests",
      dependencies: ["SharingDependencies", "SharingTesting"]
    ),
    .testTarget(
      name: "SharingCoreTests",
      dependencies: ["SharingCore", "SharingDependencies", "SharingTesting"]
    ),
    .testTarget(
      name: "SharingPersistenceTests",
      dependencies: [
        "SharingPersistence", "SharingCore", "SharingDependencies", "SharingTesting",
        "PersistenceProbe",
      ]
    ),
    // A program the persistence tests run as a second process.
    .executableTarget(
      name: "PersistenceProbe",
      dependencies: ["SharingPersistence", "SharingCore", "SharingDependencies"],
      path: "Tests/Helpers/PersistenceProbe"
    ),
    .testTarget(name: "SharingTestingTests", dependencies: ["SharingTesting", "Sharing"]),
    .testTarget(name: "SharingTests", dependencies: ["Sharing", "SharingTesting"]),

    // MARK: Tools
    .executableTarget(
      name: "SharingBenchmarks",
      dependencies: ["SharingCore", "SharingDependencies", "SharingPersistence", "CMallocInfo"],
      path: "scripts/Benchmarks",
      exclude: ["RESULTS.md", "CMallocInfo"]
    ),
    .systemLibrary(name: "CMallocInfo", path: "scripts/Benchmarks/CMallocInfo"),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
  ]
}
