/// A deterministic random number generator (SplitMix64) for seeding: the same seed gives the
/// same numbers on every platform and in every run, unlike the system generator or `Hasher`.
///
/// Each attribute and relationship draws from its own stream, derived from the seed and its
/// names, so adding an attribute to a model does not change the values of the others.
public struct SeedRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// The generator of a named stream of a seed: `SeedRandom(seed: 1, stream: "Task.title")`.
  public init(seed: UInt64, stream: String) {
    // FNV-1a over the stream's UTF-8 bytes, mixed with the seed: stable across runs.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in stream.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    var mixer = SeedRandom(seed: seed ^ hash)
    self.state = mixer.next()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  /// A number in `range`, drawn without modulo bias.
  public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
    let width = UInt64(bitPattern: range.upperBound &- range.lowerBound)
    if width == .max { return Int64(bitPattern: next()) }
    let bound = width + 1
    let limit = UInt64.max - UInt64.max % bound
    var value = next()
    while value >= limit { value = next() }
    return range.lowerBound &+ Int64(bitPattern: value % bound)
  }

  /// A number in `range`.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    Int(int(in: Int64(range.lowerBound)...Int64(range.upperBound)))
  }

  /// A fraction in `0..<1`, with 53 random bits.
  public mutating func fraction() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// True with probability `numerator / denominator`.
  public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
    int(in: 0...(denominator - 1)) < numerator
  }

  /// The elements in an order that depends only on the generator's state.
  public mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
    var result = elements
    guard result.count > 1 else { return result }
    for index in stride(from: result.count - 1, to: 0, by: -1) {
      result.swapAt(index, int(in: 0...index))
    }
    return result
  }
}
