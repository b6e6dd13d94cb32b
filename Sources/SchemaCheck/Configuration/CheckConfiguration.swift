import DataModel
import Foundation

/// The `.modelc.json` configuration of `modelc check`: a severity per rule (or `off`), and
/// findings to ignore, each with the reason it is acceptable.
///
/// ```json
/// {
///   "rules": { "possible-rename": "error", "not-downgradable": "off" },
///   "ignore": [
///     { "rule": "data-loss", "model": "Models/Tasks.xcdatamodeld", "version": "Tasks 3",
///       "reason": "the cache entity is rebuilt on launch" }
///   ]
/// }
/// ```
///
/// An ignore entry matches a finding when each field it gives matches: `rule` the rule id,
/// `model` the bundle's path or name, `version` the step's older or newer version, `entity` and
/// `property` the names concerned. `reason` is required, so every exception is explained.
public struct CheckConfiguration: Sendable, Hashable {
  /// A rule's severity as configured: one of the severities, or off.
  public enum RuleSetting: String, Sendable, Hashable, CaseIterable {
    case error, warning, note, off
  }

  /// One ignore entry.
  public struct Ignore: Sendable, Hashable {
    public var rule: String?
    public var model: String?
    public var version: String?
    public var entity: String?
    public var property: String?
    /// Why the findings are acceptable (required).
    public var reason: String

    public init(
      rule: String? = nil, model: String? = nil, version: String? = nil, entity: String? = nil,
      property: String? = nil, reason: String
    ) {
      self.rule = rule
      self.model = model
      self.version = version
      self.entity = entity
      self.property = property
      self.reason = reason
    }

    /// Whether the entry covers the finding.
    public func matches(_ finding: Finding) -> Bool {
      if let rule, rule != finding.rule { return false }
      if let model {
        guard let findingModel = finding.model else { return false }
        let name = URL(fileURLWithPath: findingModel).deletingPathExtension().lastPathComponent
        if model != findingModel && model != name && model != URL(fileURLWithPath: findingModel).lastPathComponent {
          return false
        }
      }
      if let version, version != finding.fromVersion && version != finding.toVersion { return false }
      if let entity, entity != finding.entity { return false }
      if let property, property != finding.property { return false }
      return true
    }
  }

  /// The configured severity of rules, by id.
  public var rules: [String: RuleSetting]
  /// The ignore entries, in file order.
  public var ignores: [Ignore]

  public init(rules: [String: RuleSetting] = [:], ignores: [Ignore] = []) {
    self.rules = rules
    self.ignores = ignores
  }

  /// The default name, looked for in the current directory.
  public static let fileName = ".modelc.json"

  /// Reads a configuration file; every mistake fails with the file and what to write instead.
  ///
  /// - Throws: ``CheckInputError`` (typed) when the file cannot be read, and what
  ///   ``parse(_:path:)`` throws.
  public static func read(path: String) throws(CheckInputError) -> CheckConfiguration {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CheckInputError("cannot read the configuration file '\(path)'")
    }
    return try parse(String(decoding: data, as: UTF8.self), path: path)
  }

  /// Parses configuration text; `path` names it in errors.
  ///
  /// - Throws: ``CheckInputError`` (typed) naming `path` (and the line and column of a JSON
  ///   syntax error): text that is not a JSON object, an unknown key, a rule setting other than
  ///   error, warning, note or off, an ignore entry without a reason, a value of the wrong type.
  public static func parse(_ text: String, path: String) throws(CheckInputError) -> CheckConfiguration {
    let value: JSONValue
    do {
      value = try JSONParser.parse(text)
    } catch {
      throw CheckInputError("\(path):\(error.line):\(error.column): \(error.message)")
    }
    guard let object = value.objectValue else {
      throw CheckInputError("\(path): the configuration must be a JSON object with \"rules\" and \"ignore\"")
    }
    var configuration = CheckConfiguration()
    for (key, member) in object {
      switch key {
      case "rules":
        guard let rules = member.objectValue else {
          throw CheckInputError("\(path): \"rules\" must be an object mapping rule ids to error, warning, note or off")
        }
        for (id, setting) in rules {
          try checkRuleID(id, path: path, at: "\"rules\"")
          guard let word = setting.stringValue, let parsed = RuleSetting(rawValue: word) else {
            throw CheckInputError(
              "\(path): \"rules\".\"\(id)\" must be one of \(RuleSetting.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
            )
          }
          configuration.rules[id] = parsed
        }
      case "ignore":
        guard let entries = member.arrayValue else {
          throw CheckInputError("\(path): \"ignore\" must be an array of objects, each with a \"reason\"")
        }
        for (index, entry) in entries.enumerated() {
          configuration.ignores.append(try ignore(entry, index: index, path: path))
        }
      default:
        throw CheckInputError(
          "\(path): unknown key \"\(key)\"", notes: ["the configuration has \"rules\" and \"ignore\""])
      }
    }
    return configuration
  }

  private static func ignore(_ entry: JSONValue, index: Int, path: String) throws(CheckInputError) -> Ignore {
    let place = "\"ignore\"[\(index)]"
    guard let fields = entry.objectValue else {
      throw CheckInputError("\(path): \(place) must be an object")
    }
    var strings: [String: String] = [:]
    let known = ["rule", "model", "version", "entity", "property", "reason"]
    for (key, value) in fields {
      guard known.contains(key) else {
        throw CheckInputError(
          "\(path): \(place) has an unknown key \"\(key)\"",
          notes: ["an ignore entry has \(known.map { "\"\($0)\"" }.joined(separator: ", "))"])
      }
      guard let string = value.stringValue else {
        throw CheckInputError("\(path): \(place).\"\(key)\" must be a string")
      }
      strings[key] = string
    }
    guard let reason = strings["reason"], !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw CheckInputError(
        "\(path): \(place) has no \"reason\"",
        notes: ["every ignore entry says why the findings it hides are acceptable"])
    }
    if let rule = strings["rule"] { try checkRuleID(rule, path: path, at: place) }
    guard known.dropLast().contains(where: { strings[$0] != nil }) else {
      throw CheckInputError(
        "\(path): \(place) matches every finding",
        notes: ["give at least one of \"rule\", \"model\", \"version\", \"entity\", \"property\""])
    }
    return Ignore(
      rule: strings["rule"], model: strings["model"], version: strings["version"], entity: strings["entity"],
      property: strings["property"], reason: reason)
  }

  private static func checkRuleID(_ id: String, path: String, at place: String) throws(CheckInputError) {
    guard RuleCatalogue.rule(id: id) == nil else { return }
    let closest = RuleCatalogue.all.map(\.id).min { EditDistance.between($0, id) < EditDistance.between($1, id) }
    throw CheckInputError(
      "\(path): \(place) names an unknown rule \"\(id)\"",
      notes: closest.map { ["did you mean \"\($0)\"? The rules are listed in docs/rules.md"] } ?? [])
  }

  /// Applies the configuration: sets severities, drops rules that are off and ignored findings.
  /// Returns the findings kept and how many were ignored.
  public func apply(to findings: [Finding]) -> (kept: [Finding], ignored: Int) {
    var kept: [Finding] = []
    var ignored = 0
    for var finding in findings {
      switch rules[finding.rule] {
      case .off: continue
      case .error: finding.severity = .error
      case .warning: finding.severity = .warning
      case .note: finding.severity = .note
      case nil: break
      }
      if ignores.contains(where: { $0.matches(finding) }) {
        ignored += 1
        continue
      }
      kept.append(finding)
    }
    return (kept, ignored)
  }
}
