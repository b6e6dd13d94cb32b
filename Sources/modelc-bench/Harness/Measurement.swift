import Foundation

/// One scenario's result: the figures of our side and of the baseline (for two-sided
/// scenarios, medians over pairs of processes of each side's best round, see ``TakingTurns``;
/// otherwise medians of the rounds), their ratio, and the peak memory of our side.
struct ScenarioResult: Codable {
  var name: String
  var seconds: Double
  var baselineSeconds: Double?
  var peakMemoryBytes: Int
  var note: String?
  /// The digest of the one side a child process ran (``ScenarioSide``), for the harness to
  /// compare with the other side's; nil in a finished result.
  var sideDigest: ResultDigest? = nil
  /// When the sides ran in pairs of processes taking turns (``TakingTurns``): the median over
  /// the pairs of the ratio of their best rounds, ours over the baseline.
  var pairedRatio: Double? = nil
  /// Each pair's ratio, in the order the pairs ran: how far the processes spread.
  var pairRatios: [Double]? = nil
  /// When the sides ran in pairs of processes: the minor page faults of our side's timed
  /// rounds, a round's median in each process and the median of those over the pairs. A side
  /// whose rounds free memory that the C allocator gives back to the system pays for it here,
  /// faulting it in again in the next round (docs/benchmarks.md, `fetch-all`).
  var pageFaults: Double? = nil
  /// The baseline's, counted as ``pageFaults``.
  var baselinePageFaults: Double? = nil

  /// Ours over the baseline: ``pairedRatio`` when the sides ran in pairs of processes, else the
  /// ratio of the figures; for `migrate-add-attribute`, time at many rows over time at few.
  var ratio: Double? {
    if let pairedRatio { return pairedRatio }
    guard let baselineSeconds, baselineSeconds > 0 else { return nil }
    return seconds / baselineSeconds
  }
}

/// Where ``Measure/keep(_:)`` puts results; only ever read by nobody.
nonisolated(unsafe) private var keptResults = 0

/// Timing and memory helpers.
enum Measure {
  /// Seconds taken by `body`.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  /// Uses a result, so that the optimizer cannot drop the work that computed it.
  @inline(never)
  static func keep(_ value: Int) {
    keptResults &+= value
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  /// The minor page faults of this process so far (`getrusage`): pages the kernel had to map
  /// in on first touch, memory new to the process or given back to the system and taken again.
  static func minorPageFaults() -> Int {
    var usage = rusage()
    #if os(Linux)
      let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
      let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    return Int(usage.ru_minflt)
  }

  /// Resets the process's peak resident set size (Linux: /proc/self/clear_refs), so the next
  /// reading is the peak of what follows.
  static func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
  }

  /// The peak resident set size since the last reset, in bytes (VmHWM), or the current size
  /// where that is not available.
  static func peakMemory() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let digits = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
      return digits * 1024
    }
    return 0
  }
}
