import DataModel
import Foundation

/// The model the fuzz targets match their inputs against: `Models/Tasks.xcdatamodeld` (or
/// `$MODELC_FUZZ_MODEL`), read once per process. Compiled into every target by `scripts/fuzz`.
enum FuzzModel {
  static let bundle: ModelBundle = {
    let modelPath = ProcessInfo.processInfo.environment["MODELC_FUZZ_MODEL"] ?? "Models/Tasks.xcdatamodeld"
    do {
      return try ModelBundle(contentsOf: modelPath)
    } catch {
      fatalError("the Tasks model cannot be loaded (run from the package root, or set MODELC_FUZZ_MODEL): \(error)")
    }
  }()
}
