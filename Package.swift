// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "modelc",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "DataModel", targets: ["DataModel"]),
    .library(name: "SQLite", targets: ["SQLite"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .library(name: "Migration", targets: ["Migration"]),
    .library(name: "ModelCodegen", targets: ["ModelCodegen"]),
    .library(name: "TaskKit", targets: ["TaskKit"]),
    .executable(name: "modelc", targets: ["modelc"]),
    .executable(name: "task", targets: ["task"]),
    .plugin(name: "ModelcPlugin", targets: ["ModelcPlugin"]),
  ],
  targets: [
    // The system's libsqlite3 (libsqlite3-dev on Debian and Ubuntu).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // The SQLite wrapper: connections, statements, values, transactions, backups and functions, the
    // one place that calls SQLite's C API.
    .target(name: "SQLite", dependencies: ["CSQLite"]),
    // Model types, the XML reader, validation, version hashes and diffs.
    .target(name: "DataModel"),
    // The SQLite store in Core Data's layout, the object context and the query engine, and the
    // StoreMigrator hook a container calls on open (the migration code itself is in Migration).
    .target(name: "Persistence", dependencies: ["DataModel", "SQLite"]),
    // Mapping models (.xcmappingmodel and .cdm), expressions, lightweight inference and the
    // migration engine. The umbrella product of the runtime: it re-exports DataModel and
    // Persistence (the only @_exported imports in the package), so a migrating program needs one
    // import.
    .target(name: "Migration", dependencies: ["DataModel", "SQLite", "Persistence"]),
    // The checks behind `modelc check` and `modelc diagram`: rule catalogue, findings of model
    // versions, version steps, git history and store data, their output formats (text, JSON,
    // SARIF, GitHub, Markdown) and entity-relationship diagrams; a library so it can be tested.
    .target(name: "SchemaCheck", dependencies: ["DataModel", "SQLite", "Persistence", "Migration"]),
    // The Swift code generator behind `modelc generate`.
    .target(name: "ModelCodegen", dependencies: ["DataModel"]),
    // Command-line argument parsing shared by every executable.
    .target(name: "ArgumentParsing"),
    // The task list's model and view-model layer; its entity classes are generated from
    // Models/Tasks.xcdatamodeld at build time (see Sources/TaskKit/modelc.json).
    .target(
      name: "TaskKit", dependencies: ["Persistence", "Migration"], exclude: ["modelc.json"], plugins: ["ModelcPlugin"]),
    .executableTarget(
      name: "modelc",
      dependencies: ["DataModel", "Persistence", "Migration", "ModelCodegen", "SchemaCheck", "ArgumentParsing"]
    ),
    .executableTarget(name: "task", dependencies: ["TaskKit", "ArgumentParsing"]),
    // The benchmark harness: our hot paths against raw SQLite in the same run (release builds).
    .executableTarget(
      name: "modelc-bench",
      dependencies: ["DataModel", "Persistence", "Migration", "ModelCodegen", "ArgumentParsing", "CSQLite", "TaskKit"]
    ),
    // Runs `modelc generate` for the models a target declares, at build time.
    .plugin(name: "ModelcPlugin", capability: .buildTool(), dependencies: ["modelc"]),

    // Paths of fixtures and of the shared corpus, for every test target.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "DataModelTests", dependencies: ["DataModel", "TestSupport"]),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
    .testTarget(name: "PersistenceTests", dependencies: ["SQLite", "Persistence", "TestSupport"]),
    .testTarget(name: "MigrationTests", dependencies: ["SQLite", "Migration", "TestSupport"]),
    .testTarget(name: "SchemaCheckTests", dependencies: ["SchemaCheck", "Persistence", "TestSupport"]),
    // Entity classes the plugin generates from Tests/Fixtures/models/Library.xcdatamodeld, with
    // the code an app writes next to them, for the generated-code tests.
    .target(
      name: "GeneratedLibrary", dependencies: ["Persistence"], path: "Tests/GeneratedLibrary", exclude: ["modelc.json"],
      plugins: ["ModelcPlugin"]),
    .testTarget(name: "ModelCodegenTests", dependencies: ["ModelCodegen", "GeneratedLibrary", "TestSupport"]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "TaskKitTests", dependencies: ["SQLite", "TaskKit", "TestSupport"]),
    // Runs the built `task` executable as a user does.
    .testTarget(name: "TaskCLITests", dependencies: ["task", "Persistence", "TestSupport"]),
    .testTarget(name: "ModelcTests", dependencies: ["modelc", "modelc-bench", "SQLite", "Persistence", "TestSupport"]),
    // Fault, bad-input, concurrency and kill campaigns against the built executables and the runtime.
    .testTarget(name: "ReliabilityTests", dependencies: ["modelc", "task", "SQLite", "Persistence", "Migration", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
