import Foundation
import TaskKit

/// Dates as the command line writes them: `YYYY-MM-DD`, a day in the local time zone; moments
/// (when a task was done, a note written) as `YYYY-MM-DD HH:MM` in the local time zone for
/// people and as ISO 8601 in UTC for JSON.
enum TaskDates {
  static func parse(_ text: String) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let components = DateComponents(year: year, month: month, day: day)
    guard let date = calendar.date(from: components),
      calendar.component(.month, from: date) == month, calendar.component(.day, from: date) == day
    else { return nil }
    return date
  }

  /// The local time zone, read once.
  static let localZone = TimeZone.current

  static func format(_ date: Date) -> String {
    LocalDay.format(date, in: localZone)
  }

  /// A moment for people: `2026-12-01 16:05`, local time.
  static func formatMoment(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(
      format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
      parts.minute ?? 0)
  }

  /// A moment for JSON: ISO 8601 in UTC, to the second (`2026-12-01T16:05:09Z`).
  static func formatISO8601(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}
