import Foundation

/// How far a long operation is, how fast it goes and how long it has left, as one line for
/// ``Terminal/progress(_:)``: `12000/100000 (12%), 35000/s, about 3 s left`.
public struct ProgressEstimate: Sendable, Hashable, CustomStringConvertible {
  /// Units done.
  public var done: Int
  /// Units in all (0 when unknown).
  public var total: Int
  /// Seconds since the operation started.
  public var elapsed: TimeInterval
  /// What a unit is called, plural (`objects`, `rows`).
  public var unit: String

  public init(done: Int, total: Int, elapsed: TimeInterval, unit: String) {
    self.done = done
    self.total = total
    self.elapsed = elapsed
    self.unit = unit
  }

  /// Units per second, once there is enough to measure.
  public var rate: Double? {
    elapsed >= 0.2 && done > 0 ? Double(done) / elapsed : nil
  }

  /// Seconds left at the rate so far.
  public var remaining: TimeInterval? {
    guard let rate, total > done else { return nil }
    return Double(total - done) / rate
  }

  public var description: String {
    var text = total > 0 ? "\(done)/\(total) \(unit) (\(min(100, done * 100 / total))%)" : "\(done) \(unit)"
    if let rate { text += ", \(Int(rate.rounded()))/s" }
    if let remaining {
      text +=
        remaining < 60
        ? ", about \(Int(remaining.rounded(.up))) s left" : ", about \(Int((remaining / 60).rounded(.up))) min left"
    }
    return text
  }
}
