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
    .library(name: "SharingPostgres", targets: ["SharingPostgres"]),
  ],
  targets: [
    // MARK: Library modules (a module depends only on modules above it: CONTRIBUTING.md,
    //       "The module graph")
    .target(name: "SharingDependencies"),
    .target(name: "SharingCore", dependencies: ["SharingDependencies"]),
    .target(name: "SharingPersistence", dependencies: ["SharingCore", "SharingDependencies"]),
    .target(name: "SharingTesting", dependencies: ["SharingCore", "SharingDependencies"]),
    .target(
      name: "Sharing",
      dependencies: ["SharingDependencies", "SharingCore", "SharingPersistence"]
    ),
    // A store module beside SharingPersistence, whose write schedulers it shares. Only it
    // links libpq: every other product builds without it.
    .target(
      name: "SharingPostgres",
      dependencies: ["SharingCore", "SharingDependencies", "SharingPersistence", "CLibPQ"]
    ),
    .systemLibrary(
      name: "CLibPQ",
      path: "Sources/CLibPQ",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
    ),

    // MARK: Tests, one target per module
    .testTarget(
      name: "SharingDependenciesTests",
      dependencies: ["SharingDependencies", "SharingTesting"]
    ),
    .testTarget(
      name: "SharingCoreTests",
      dependencies: ["SharingCore", "SharingDependencies", "SharingTesting", "TestSupport"]
    ),
    .testTarget(
      name: "SharingPersistenceTests",
      dependencies: [
        "SharingPersistence", "SharingCore", "SharingDependencies", "SharingTesting",
        "TestSupport", "PersistenceProbe",
      ]
    ),
    // A program the persistence tests run as a second process.
    .executableTarget(
      name: "PersistenceProbe",
      dependencies: ["SharingPersistence", "SharingCore", "SharingDependencies", "TestSupport"],
      path: "Tests/Helpers/PersistenceProbe"
    ),
    // Helpers the test targets share: concurrency, a watchdog, seeded randomness, and
    // launching the programs built beside the tests.
    .target(name: "TestSupport", dependencies: ["SharingDependencies"], path: "Tests/Support"),
    .testTarget(name: "SharingTestingTests", dependencies: ["SharingTesting", "Sharing"]),
    .testTarget(
      name: "SharingPostgresTests",
      dependencies: [
        "SharingPostgres", "SharingPersistence", "SharingCore", "SharingDependencies",
        "SharingTesting", "TestSupport", "PostgresTestSupport", "PostgresProbe",
      ]
    ),
    // Throwaway PostgreSQL clusters for the tests that need a real server.
    .target(
      name: "PostgresTestSupport",
      dependencies: ["SharingDependencies", "TestSupport"],
      path: "Tests/Helpers/PostgresTestSupport"
    ),
    // A program the PostgreSQL tests run as other processes.
    .executableTarget(
      name: "PostgresProbe",
      dependencies: ["SharingPostgres", "SharingCore", "SharingDependencies", "TestSupport"],
      path: "Tests/Helpers/PostgresProbe"
    ),
    .testTarget(name: "SharingTests", dependencies: ["Sharing", "SharingTesting"]),

    // MARK: Tools
    .executableTarget(
      name: "SharingBenchmarks",
      dependencies: ["SharingCore", "SharingDependencies", "SharingPersistence", "CProbes"],
      path: "scripts/Benchmarks",
      exclude: ["RESULTS.md", "CProbes"]
    ),
    .systemLibrary(name: "CProbes", path: "scripts/Benchmarks/CProbes"),
    .executableTarget(
      name: "PostgresBenchmarks",
      dependencies: [
        "SharingPostgres", "SharingCore", "SharingDependencies", "PostgresTestSupport",
        "TestSupport",
      ],
      path: "scripts/PostgresBenchmarks"
    ),
  ]
    // MARK: Example apps (Apps/<Name>/: a command, the library holding its logic, its tests)
    + exampleApp(
      "Counter",
      command: "counter",
      dependencies: ["SharingPersistence", "SharingCore", "SharingDependencies"]
    )
    + exampleApp(
      "Todos",
      command: "todos",
      dependencies: ["SharingPersistence", "SharingCore", "SharingDependencies"]
    )
    + exampleApp("SignUp", command: "signup", dependencies: ["SharingCore"])
    + exampleApp("Tabs", command: "tabs", dependencies: ["SharingCore"])
    + exampleApp("Sysmon", command: "sysmon", dependencies: ["SharingCore", "SharingDependencies"])
    + exampleApp(
      "Flags",
      command: "flags",
      dependencies: ["SharingPostgres", "SharingCore", "SharingDependencies"],
      testDependencies: ["PostgresTestSupport"]
    )
    + [
      // What the apps' command lines share: parsing, usage errors, exit statuses, messages.
      .target(name: "CommandLineSupport", path: "Apps/CommandLineSupport/Sources"),
      .testTarget(
        name: "CommandLineSupportTests",
        dependencies: ["CommandLineSupport", "AppTestSupport"],
        path: "Apps/CommandLineSupport/Tests"
      ),
      // Runs the apps' commands from their tests, as a user would in a terminal.
      .target(name: "AppTestSupport", dependencies: ["TestSupport"], path: "Apps/AppTestSupport"),
    ],
  swiftLanguageModes: [.v6]
)

/// An example app in `Apps/<name>/`: the executable `command` (`Sources/<command>/`), the
/// library `<name>Kit` holding its logic (`Sources/<name>Kit/`), and the test target
/// `<name>Tests` (`Tests/`), which depends on the executable so that `swift test` builds it.
func exampleApp(
  _ name: String,
  command: String,
  dependencies: [Target.Dependency],
  testDependencies: [Target.Dependency] = []
) -> [Target] {
  let kit = "\(name)Kit"
  let dependencies = dependencies + ["CommandLineSupport"]
  return [
    .executableTarget(
      name: command,
      dependencies: [.target(name: kit)] + dependencies,
      path: "Apps/\(name)/Sources/\(command)"
    ),
    .target(name: kit, dependencies: dependencies, path: "Apps/\(name)/Sources/\(kit)"),
    .testTarget(
      name: "\(name)Tests",
      dependencies: [
        .target(name: kit), .target(name: command), "SharingTesting", "AppTestSupport",
      ] + dependencies + testDependencies,
      path: "Apps/\(name)/Tests"
    ),
  ]
}

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
