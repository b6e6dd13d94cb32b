import Foundation

/// Dates as ISO 8601 in UTC with milliseconds (`2026-11-29T20:30:00.125Z`), the form every JSON
/// the tools write uses; reading also accepts the form without fractional seconds.
public enum ISO8601Milliseconds {
  /// The date as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
  public static func string(from date: Date) -> String {
    // Round to the millisecond first so that 59.9996 s does not print as 59.1000.
    let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    let seconds = (totalMilliseconds / 1000).rounded(.down)
    let milliseconds = Int(totalMilliseconds - seconds * 1000)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
    func pad(_ value: Int?, _ width: Int) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return
      "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(milliseconds, 3))Z"
  }

  /// Parses `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM)`; nil when the text is not such a date.
  public static func date(from text: String) -> Date? {
    let characters = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= characters.count else { return nil }
      var value = 0
      for byte in characters[start..<(start + count)] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard characters.count >= 20, let year = number(0, 4), characters[4] == UInt8(ascii: "-"),
      let month = number(5, 2), characters[7] == UInt8(ascii: "-"), let day = number(8, 2),
      characters[10] == UInt8(ascii: "T") || characters[10] == UInt8(ascii: " "), let hour = number(11, 2),
      characters[13] == UInt8(ascii: ":"), let minute = number(14, 2), characters[16] == UInt8(ascii: ":"),
      let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
      second < 61
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < characters.count, characters[index] == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      let start = index
      while index < characters.count, characters[index] >= 48, characters[index] <= 57 {
        fraction += Double(characters[index] - 48) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    var offsetSeconds = 0
    guard index < characters.count else { return nil }
    if characters[index] == UInt8(ascii: "Z") {
      index += 1
    } else if characters[index] == UInt8(ascii: "+") || characters[index] == UInt8(ascii: "-") {
      let sign = characters[index] == UInt8(ascii: "-") ? -1 : 1
      guard let offsetHours = number(index + 1, 2), characters.count > index + 3 else { return nil }
      var minutesStart = index + 3
      if characters[minutesStart] == UInt8(ascii: ":") { minutesStart += 1 }
      guard let offsetMinutes = number(minutesStart, 2) else { return nil }
      offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
      index = minutesStart + 2
    } else {
      return nil
    }
    guard index == characters.count else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let base = calendar.date(from: components), calendar.component(.day, from: base) == day else { return nil }
    return base.addingTimeInterval(fraction - Double(offsetSeconds))
  }
}
