import DataModel
import Foundation

/// The path model XML read in memory is reported under.
let memoryPath = "contents"

/// Wraps entity-level XML in the prologue Xcode writes, so that line 3 of the document is the
/// first line of `body`:
///
///     1 <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
///     2 <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" …>
///     3 (first line of body)
func modelXML(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
  <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">
  \(body)
  </model>

  """
}

/// Reads a model from `body` (wrapped by ``modelXML(_:)``) without validating it.
func readModel(_ body: String, name: String = "Model") -> (version: ModelVersion?, diagnostics: [Diagnostic]) {
  let (version, diagnostics) = ModelReader.readVersion(xml: modelXML(body), name: name, path: memoryPath)
  return (version, diagnostics)
}

/// Reads a complete XML document without validating it.
func readDocument(_ xml: String, name: String = "Model") -> (version: ModelVersion?, diagnostics: [Diagnostic]) {
  let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: name, path: memoryPath)
  return (version, diagnostics)
}

/// Reads and validates a model from `body`; returns every reader and validator diagnostic.
func diagnose(_ body: String) -> [Diagnostic] {
  let (version, diagnostics) = readModel(body)
  guard let version else { return diagnostics }
  return diagnostics + ModelValidator.validate(version)
}

/// Reads `body` and returns the version, which must read.
func version(_ body: String) -> ModelVersion? {
  readModel(body).version
}

extension Array where Element == Diagnostic {
  /// The diagnostics with this code.
  func with(code: String) -> [Diagnostic] { filter { $0.code == code } }

  /// `line:column` of each diagnostic with this code, in order.
  func positions(of code: String) -> [String] {
    with(code: code).map { diagnostic in
      diagnostic.location.map { "\($0.line):\($0.column)" } ?? "-"
    }
  }

  /// The codes of all diagnostics, in order.
  var codes: [String] { map(\.code) }

  /// Every diagnostic printed, for failure messages.
  var printed: String { map(\.description).joined(separator: "\n") }
}

/// A small deterministic random number generator (SplitMix64), so that "random" inputs are the
/// same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
