import Foundation

/// The day of a moment in a time zone, as the task list writes it: `YYYY-MM-DD` in the
/// Gregorian calendar.
///
/// Computed from the zone's offset at that moment and the days since 1970, where
/// `Calendar.dateComponents` cost about 3,500 instructions a date (a twentieth of listing 1,000
/// tasks, half of which have a due date). The result is the Gregorian calendar's: outside the
/// years 1583 to 9999 — before 1583 Foundation's Gregorian calendar counts the days of the
/// Julian calendar it replaced — the calendar itself answers.
public enum LocalDay {
  /// `date`'s day in `zone`, `YYYY-MM-DD`.
  public static func format(_ date: Date, in zone: TimeZone) -> String {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, seconds > Double(firstSecond - 86_400), seconds < Double(endSecond + 86_400) else {
      return calendarFormat(date, in: zone)
    }
    let local = Int64(seconds.rounded(.down)) + Int64(zone.secondsFromGMT(for: date))
    guard local >= firstSecond, local < endSecond else { return calendarFormat(date, in: zone) }
    // Days since 1970-01-01, rounded down, then the civil date of that day (the proleptic
    // Gregorian calendar counted in 400-year eras from 0000-03-01, which puts leap days at the
    // end of each year).
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return text(year: Int(year), month: Int(month), day: Int(day))
  }

  /// 1583-01-01T00:00:00 and 10000-01-01T00:00:00 (local), in seconds since 1970.
  private static let firstSecond: Int64 = -12_212_553_600
  private static let endSecond: Int64 = 253_402_300_800

  /// The calendar's answer, for the days the arithmetic does not cover.
  private static func calendarFormat(_ date: Date, in zone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return text(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
  }

  /// `YYYY-MM-DD`, each part with leading zeros (a year beyond four digits keeps them all).
  public static func text(year: Int, month: Int, day: Int) -> String {
    guard (0...9_999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
      func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count < width ? String(repeating: "0", count: width - text.count) + text : text
      }
      return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
    }
    return String(unsafeUninitializedCapacity: 10) { bytes in
      let zero = UInt8(ascii: "0")
      bytes[0] = zero + UInt8(year / 1_000)
      bytes[1] = zero + UInt8(year / 100 % 10)
      bytes[2] = zero + UInt8(year / 10 % 10)
      bytes[3] = zero + UInt8(year % 10)
      bytes[4] = UInt8(ascii: "-")
      bytes[5] = zero + UInt8(month / 10)
      bytes[6] = zero + UInt8(month % 10)
      bytes[7] = UInt8(ascii: "-")
      bytes[8] = zero + UInt8(day / 10)
      bytes[9] = zero + UInt8(day % 10)
      return 10
    }
  }
}
