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
  // The targets form a layering; a target imports only targets below it, and Package.swift lists
  // exactly what each one imports (Tests/PackageTests checks both on every `swift test`):
  //
  //   CSQLite ← SQLite ← Persistence ← Migration ← SchemaCheck
  //   DataModel below Persistence, Migration, SchemaCheck and ModelCodegen; ArgumentParsing alone
  //   TaskKit on Persistence and Migration; the executables on top.
  //
  // One umbrella: `import Persistence` brings DataModel with it (@_exported), because code
  // generated from a model imports only Persistence and its public API is written in DataModel's
  // types. No other target re-exports: a program that migrates imports Migration and Persistence,
  // and code that runs its own SQL or catches SQLiteError imports SQLite.
  targets: [
    // The system's libsqlite3 (libsqlite3-dev on Debian and Ubuntu), as a module map.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // Model types, the XML reader with source locations, validation, Core Data's version hashes,
    // diffs between versions, JSON. Foundation only; knows nothing of stores.
    .target(name: "DataModel"),
    // The SQLite wrapper: connections, statements, bound values and quoted identifiers,
    // transactions, backups, SQL functions. The one place that calls SQLite's C API; knows
    // nothing of models.
    .target(name: "SQLite", dependencies: ["CSQLite"]),
    // Stores in Core Data's SQLite layout: the layout, containers and object contexts, change
    // tracking, the predicate parser and both evaluators, batch operations, import, export and
    // seeding, and the StoreMigrator hook a container calls on open. The umbrella for generated
    // entity code: it re-exports DataModel.
    .target(name: "Persistence", dependencies: ["DataModel", "SQLite"]),
    // Moving stores between model versions: lightweight inference, the planner and step SQL,
    // StoreMigration and the store migrator a container uses, mapping models (.xcmappingmodel
    // and .cdm), expressions, heavyweight migration with policies.
    .target(name: "Migration", dependencies: ["DataModel", "SQLite", "Persistence"]),
    // The checks behind `modelc check` and `modelc diagram`: rule catalogue, findings of model
    // versions, version steps, git history and store data, their output formats (text, JSON,
    // SARIF, GitHub, Markdown) and entity-relationship diagrams; a library so it can be tested.
    .target(name: "SchemaCheck", dependencies: ["DataModel", "SQLite", "Persistence", "Migration"]),
    // The Swift code generator behind `modelc generate`: a planner over a validated model, then
    // printers. Its output imports Persistence; it imports only DataModel.
    .target(name: "ModelCodegen", dependencies: ["DataModel"]),
    // Command-line argument parsing, help and terminal output shared by the executables.
    .target(name: "ArgumentParsing"),
    // The task list's model and view-model layer; its entity classes are generated from
    // Models/Tasks.xcdatamodeld at build time (see Sources/TaskKit/modelc.json). Works only
    // through the runtime and the generated code: no SQL here, so no SQLite.
    .target(
      name: "TaskKit", dependencies: ["Persistence", "Migration"], exclude: ["modelc.json"], plugins: ["ModelcPlugin"]),
    // The `modelc` command: validate, dump, diff, generate, migrate, mapping, store, fetch, check.
    .executableTarget(
      name: "modelc",
      dependencies: ["DataModel", "Persistence", "Migration", "ModelCodegen", "SchemaCheck", "ArgumentParsing"]
    ),
    // The `task` command: the task list on the command line, over TaskKit.
    // Release builds link the Swift runtime and Foundation statically: loading and relocating the
    // shared libraries was a quarter of `task list`'s cold start (docs/benchmarks.md). They link
    // a non-PIE executable: a static PIE applies some 80,000 relocations at every start, touching
    // (and faulting in) about 250 pages of the binary.
    .executableTarget(
      name: "task", dependencies: ["DataModel", "TaskKit", "ArgumentParsing"],
      swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
      linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))]
    ),
    // The benchmark harness: our hot paths against raw SQLite (CSQLite directly) in the same run
    // (release builds).
    .executableTarget(
      name: "modelc-bench",
      dependencies: ["DataModel", "Persistence", "Migration", "ModelCodegen", "ArgumentParsing", "CSQLite", "TaskKit"]
    ),
    // Runs `modelc generate` for the models a target declares, at build time.
    .plugin(name: "ModelcPlugin", capability: .buildTool(), dependencies: ["modelc"]),

    // Paths of fixtures and of the shared corpus, temporary folders and thread helpers, for every
    // test target.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "DataModelTests", dependencies: ["DataModel", "TestSupport"]),
    .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
    .testTarget(name: "PersistenceTests", dependencies: ["DataModel", "SQLite", "Persistence", "TestSupport"]),
    .testTarget(
      name: "MigrationTests", dependencies: ["DataModel", "SQLite", "Persistence", "Migration", "TestSupport"]),
    .testTarget(
      name: "SchemaCheckTests", dependencies: ["DataModel", "Persistence", "Migration", "SchemaCheck", "TestSupport"]),
    // Entity classes the plugin generates from Tests/Fixtures/models/Library.xcdatamodeld, with
    // the code an app writes next to them, for the generated-code tests.
    .target(
      name: "GeneratedLibrary", dependencies: ["Persistence"], path: "Tests/GeneratedLibrary", exclude: ["modelc.json"],
      plugins: ["ModelcPlugin"]),
    .testTarget(
      name: "ModelCodegenTests",
      dependencies: ["DataModel", "Persistence", "ModelCodegen", "GeneratedLibrary", "TestSupport"]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "TaskKitTests", dependencies: ["SQLite", "Persistence", "TaskKit", "TestSupport"]),
    // Runs the built `task` executable as a user does.
    .testTarget(name: "TaskCLITests", dependencies: ["task", "Persistence", "TestSupport"]),
    .testTarget(name: "ModelcTests", dependencies: ["modelc", "modelc-bench", "SQLite", "Persistence", "TestSupport"]),
    // The import graph is the layering above: reads Package.swift and every target's import lines.
    .testTarget(name: "PackageTests", dependencies: ["TestSupport"]),
    // Fault, bad-input, concurrency and kill campaigns against the built executables and the runtime.
    .testTarget(name: "ReliabilityTests", dependencies: ["modelc", "task", "SQLite", "Persistence", "Migration", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
