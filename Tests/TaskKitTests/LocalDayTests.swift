import Foundation
import TaskKit
import Testing

/// The day of a moment is the Gregorian calendar's, in every time zone, on both sides of
/// midnight and of offset changes, and outside the years the arithmetic covers.
@Suite("Local day")
struct LocalDayTests {
  static let zones = [
    "UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe", "America/St_Johns",
    "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Dublin",
  ]

  func calendarDay(_ date: Date, _ zone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return LocalDay.text(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
  }

  @Test("Agrees with Calendar.dateComponents", arguments: zones)
  func agreesWithTheCalendar(_ identifier: String) throws {
    let zone = try #require(TimeZone(identifier: identifier))
    var generator = SystemRandomNumberGenerator()
    var dates: [Date] = []
    // Random moments from 1500 to 10100, and the seconds around local midnights and
    // offset changes of recent years.
    for _ in 0..<3_000 {
      dates.append(Date(timeIntervalSince1970: Double.random(in: -14_831_769_600...256_557_974_400, using: &generator)))
    }
    var moment = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01T00:00:00Z
    while moment.timeIntervalSince1970 < 1_798_761_600 {  // 2027
      let offset = Double(zone.secondsFromGMT(for: moment))
      let midnight = (moment.timeIntervalSince1970 + offset).rounded(.down) / 86_400
      let localMidnight = midnight.rounded(.down) * 86_400 - offset
      for delta in [-1.0, -0.25, 0, 0.25, 1] { dates.append(Date(timeIntervalSince1970: localMidnight + delta)) }
      if let change = zone.nextDaylightSavingTimeTransition(after: moment) {
        for delta in [-1.0, 0, 1] { dates.append(change.addingTimeInterval(delta)) }
      }
      moment = moment.addingTimeInterval(86_400 * 7)
    }
    // The edges of the arithmetic: the Julian days before 1583, the years after 9999.
    for text in [-12_212_553_600.0, -12_212_553_601, -12_219_292_800, 253_402_300_799, 253_402_300_800] {
      dates.append(Date(timeIntervalSince1970: text))
    }
    for date in dates {
      #expect(
        LocalDay.format(date, in: zone) == calendarDay(date, zone), "\(date.timeIntervalSince1970) in \(identifier)")
    }
  }

  @Test("Each part has its leading zeros")
  func leadingZeros() {
    #expect(LocalDay.text(year: 2026, month: 1, day: 5) == "2026-01-05")
    #expect(LocalDay.text(year: 800, month: 12, day: 31) == "0800-12-31")
    #expect(LocalDay.text(year: 12_345, month: 3, day: 9) == "12345-03-09")
  }
}
