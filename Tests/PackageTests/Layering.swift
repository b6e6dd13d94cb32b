/// The package's layering: the package modules each library and executable target may import.
///
/// `CSQLite ← SQLite ← Persistence ← Migration ← SchemaCheck`, with `DataModel` below everything
/// that knows a model, `ArgumentParsing` on its own, `ModelCodegen` on `DataModel` alone, `TaskKit`
/// on the runtime (and not on `SQLite`: the task list runs no SQL of its own), and the
/// executables on top. `CONTRIBUTING.md`'s module map says the same in prose; `Package.swift`
/// must declare exactly what each target imports, which must lie inside its set here.
enum Layering {
  /// For each target under `Sources`, the package targets it may import.
  static let allowedImports: [String: Set<String>] = [
    "DataModel": [],
    "ArgumentParsing": [],
    "SQLite": ["CSQLite"],
    "Persistence": ["DataModel", "SQLite"],
    "Migration": ["DataModel", "SQLite", "Persistence"],
    "SchemaCheck": ["DataModel", "SQLite", "Persistence", "Migration"],
    "ModelCodegen": ["DataModel"],
    "TaskKit": ["DataModel", "Persistence", "Migration"],
    "modelc": ["DataModel", "SQLite", "Persistence", "Migration", "ModelCodegen", "SchemaCheck", "ArgumentParsing"],
    "task": ["DataModel", "Persistence", "Migration", "TaskKit", "ArgumentParsing"],
    "modelc-bench": [
      "CSQLite", "DataModel", "SQLite", "Persistence", "Migration", "ModelCodegen", "ArgumentParsing", "TaskKit",
    ],
  ]

  /// The only `@_exported` imports: `Persistence` is the umbrella of generated entity code, which
  /// imports only `Persistence` and uses `DataModel`'s types.
  static let reExports: [String: Set<String>] = ["Persistence": ["DataModel"]]

  /// Modules of the toolchain and the platform, which any target may import; anything else must
  /// be a target of this package (the package depends on no other package).
  static let toolchainModules: Set<String> = [
    "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "Android", "WinSDK", "Synchronization", "Observation",
    "RegexBuilder", "Testing", "XCTest",
  ]
}
