import Foundation

/// Parses the text of default values and min/max bounds into typed values, the way Xcode's model
/// compiler reads them.
///
/// Real model files are not always tidy: integer attributes with `defaultValueString="NO"` or
/// `"0.0"` and Boolean ones with `"0"` compile fine with momc, so they parse here too (integral
/// decimals and YES/NO as numbers); only text that no Core Data reading could make sense of is
/// rejected.
enum AttributeValueParser {
  /// The outcome of parsing one value.
  enum Outcome {
    case value(AttributeValue)
    /// Parsed, but in a spelling worth a warning (the message says which).
    case lenient(AttributeValue, String)
    case failure(String)
  }

  static func parseDefault(_ text: String, type: AttributeType) -> Outcome? {
    switch type {
    case .integer16, .integer32, .integer64:
      return parseInteger(text, type: type)
    case .decimal:
      if let decimal = parseDecimal(text) { return .value(.decimal(decimal)) }
      if let flag = parseYesNo(text) {
        return .lenient(.decimal(flag ? 1 : 0), "a YES/NO default on a Decimal attribute reads as \(flag ? 1 : 0)")
      }
      return .failure("'\(text)' is not a decimal number")
    case .double:
      if let double = parseDouble(text) { return .value(.double(double)) }
      if let flag = parseYesNo(text) {
        return .lenient(.double(flag ? 1 : 0), "a YES/NO default on a Double attribute reads as \(flag ? 1 : 0)")
      }
      return .failure("'\(text)' is not a number")
    case .float:
      if let double = parseDouble(text) { return .value(.float(Float(double))) }
      if let flag = parseYesNo(text) {
        return .lenient(.float(flag ? 1 : 0), "a YES/NO default on a Float attribute reads as \(flag ? 1 : 0)")
      }
      return .failure("'\(text)' is not a number")
    case .string:
      return .value(.string(text))
    case .boolean:
      if let flag = parseYesNo(text) { return .value(.boolean(flag)) }
      if let number = parseDouble(text) { return .value(.boolean(number != 0)) }
      return .failure("'\(text)' is not a Boolean; write YES or NO")
    case .date:
      if let seconds = parseDouble(text) { return .value(.date(Date(timeIntervalSinceReferenceDate: seconds))) }
      return .failure("'\(text)' is not a date; Date defaults are seconds since 2001-01-01 (defaultDateTimeInterval)")
    case .uuid:
      if let uuid = UUID(uuidString: text.trimmedOfWhitespace) { return .value(.uuid(uuid)) }
      return .failure("'\(text)' is not a UUID (expected the form 01234567-89AB-CDEF-0123-456789ABCDEF)")
    case .uri:
      if let url = URL(string: text), !text.isEmpty { return .value(.uri(url)) }
      return .failure("'\(text)' is not a URI")
    case .binary, .transformable, .objectID, .composite, .undefined:
      return nil
    }
  }

  /// Parses a min/max bound: a value of the attribute's type, or a length for strings and
  /// binary data.
  static func parseBound(_ text: String, type: AttributeType) -> Outcome? {
    switch type {
    case .string, .binary, .transformable:
      if let length = Int64(text.trimmedOfWhitespace), length >= 0 { return .value(.integer(length)) }
      if let double = parseDouble(text), double >= 0, double == double.rounded(), double < 9e18 {
        return .value(.integer(Int64(double)))
      }
      return .failure("'\(text)' is not a length (a whole number of characters or bytes)")
    case .integer16, .integer32, .integer64, .decimal, .double, .float, .date:
      return parseDefault(text, type: type)
    default:
      return nil
    }
  }

  private static func parseInteger(_ text: String, type: AttributeType) -> Outcome {
    let trimmed = text.trimmedOfWhitespace
    let range = type.integerRange ?? Int64.min...Int64.max
    if let integer = Int64(trimmed) {
      guard range.contains(integer) else {
        return .failure("\(integer) is out of range for \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))")
      }
      return .value(.integer(integer))
    }
    if let double = parseDouble(trimmed), double == double.rounded(), abs(double) < 9.2e18 {
      let integer = Int64(double)
      guard range.contains(integer) else {
        return .failure("\(trimmed) is out of range for \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))")
      }
      return .value(.integer(integer))
    }
    if let flag = parseYesNo(trimmed) {
      return .lenient(
        .integer(flag ? 1 : 0), "a YES/NO default on an \(type.rawValue) attribute reads as \(flag ? 1 : 0)")
    }
    return .failure("'\(text)' is not a whole number")
  }

  static func parseYesNo(_ text: String) -> Bool? {
    switch text.trimmedOfWhitespace.lowercased() {
    case "yes", "true": true
    case "no", "false": false
    default: nil
    }
  }

  static func parseDouble(_ text: String) -> Double? {
    let trimmed = text.trimmedOfWhitespace
    guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite else { return nil }
    return value
  }

  static func parseDecimal(_ text: String) -> Decimal? {
    let trimmed = text.trimmedOfWhitespace
    var sawDigit = false
    var sawDot = false
    var sawExponent = false
    var previous: Character?
    for character in trimmed {
      switch character {
      case "0"..."9": sawDigit = true
      case ".":
        if sawDot || sawExponent { return nil }
        sawDot = true
      case "e", "E":
        if sawExponent || !sawDigit { return nil }
        sawExponent = true
      case "+", "-":
        if !(previous == nil || previous == "e" || previous == "E") { return nil }
      default: return nil
      }
      previous = character
    }
    guard sawDigit else { return nil }
    return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
  }
}

extension String {
  /// The string without leading and trailing white space (`CharacterSet.whitespaces`: spaces
  /// and tabs). Values in model files almost never have any: checking the ends first avoids
  /// Foundation's slow trimming for them.
  var trimmedOfWhitespace: String {
    guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
    func mayBeWhitespace(_ scalar: Unicode.Scalar) -> Bool {
      !scalar.isASCII || scalar == " " || scalar == "\t"
    }
    if !mayBeWhitespace(first) && !mayBeWhitespace(last) { return self }
    return trimmingCharacters(in: .whitespaces)
  }
}
