/// Links seeded objects through one relationship and its inverse, so that every object ends
/// with a number of destinations its side allows: required to-ones get one, to-many
/// relationships between their minimum and maximum counts (optional ones may stay empty), and
/// the inverse side's counts hold too (a to-one inverse takes each destination at most once).
///
/// Sources get their counts first (one to three for to-many relationships, nil or empty one time
/// in eight when optional); the total is then raised or lowered until the destinations can take
/// it, spread over them as evenly as their bounds allow, and the two lists of slots are paired.
/// An object is never linked to itself or twice to one destination when another pairing avoids
/// it. A model whose counts no linking satisfies is refused with an error naming both sides.
struct RelationshipSeeder {
  /// How many destinations one object may have through one side of the relationship.
  struct Bounds: CustomStringConvertible {
    var minimum: Int
    var maximum: Int
    /// Whether none is allowed (optional relationships, below their minimum count).
    var allowsNone: Bool

    static let unbounded = Bounds(minimum: 1, maximum: .max, allowsNone: true)

    init(minimum: Int, maximum: Int, allowsNone: Bool) {
      self.minimum = minimum
      self.maximum = maximum
      self.allowsNone = allowsNone
    }

    init(_ relationship: RelationshipDescription) {
      if relationship.isToMany {
        minimum = max(1, relationship.minCount)
        maximum = relationship.maxCount > 0 ? relationship.maxCount : .max
      } else {
        minimum = 1
        maximum = 1
      }
      allowsNone = relationship.isOptional
    }

    var description: String {
      let range = maximum == .max ? "\(minimum) or more" : (minimum == maximum ? "\(minimum)" : "\(minimum)…\(maximum)")
      return allowsNone ? "none or \(range)" : range
    }
  }

  let entity: String
  let relationship: RelationshipDescription
  let inverseName: String?
  var random: SeedRandom

  /// The pairs (source index, destination index) that link `sourceCount` sources with bounds
  /// `source` to destinations with bounds `destinations[i]`; `sameObject(s, d)` tells when a
  /// source and a destination are one object (reflexive relationships).
  mutating func plan(
    sourceCount: Int, source: Bounds, destinations: [Bounds], sameObject: (Int, Int) -> Bool
  ) throws(SeedError) -> [(Int, Int)] {
    guard sourceCount > 0 else { return [] }
    let destinationCount = destinations.count
    func failure(_ message: String) -> SeedError {
      SeedError(entity: entity, property: relationship.name, message: message)
    }
    guard destinationCount > 0 else {
      if source.allowsNone { return [] }
      throw failure(
        "a destination is required, but no \(relationship.destinationEntityName) object is seeded (is every entity of it abstract?)"
      )
    }
    let sourceMaximum = min(source.maximum, destinationCount)
    guard source.allowsNone || source.minimum <= sourceMaximum else {
      throw failure(
        "each object needs \(source.minimum) distinct destinations, but only \(destinationCount) \(relationship.destinationEntityName) objects are seeded"
      )
    }

    // 1. Source counts.
    var counts = [Int](repeating: 0, count: sourceCount)
    for index in 0..<sourceCount {
      if source.allowsNone && random.chance(1, in: 8) { continue }
      guard source.minimum <= sourceMaximum else { continue }
      counts[index] =
        relationship.isToMany ? random.int(in: source.minimum...min(sourceMaximum, source.minimum + 2)) : 1
    }

    // 2. The total the destinations can take.
    let needed = destinations.reduce(0) { $0 + ($1.allowsNone ? 0 : $1.minimum) }
    let capacity = destinations.reduce(0) { $0 + min($1.maximum, sourceCount) }
    var total = counts.reduce(0, +)
    var index = 0
    var idle = 0
    while total < needed && idle < sourceCount {
      let step = counts[index] == 0 ? source.minimum : 1
      if counts[index] + step <= sourceMaximum {
        counts[index] += step
        total += step
        idle = 0
      } else {
        idle += 1
      }
      index = (index + 1) % sourceCount
    }
    idle = 0
    while total > capacity && idle < sourceCount {
      if counts[index] > source.minimum {
        counts[index] -= 1
        total -= 1
        idle = 0
      } else if counts[index] > 0 && source.allowsNone {
        total -= counts[index]
        counts[index] = 0
        idle = 0
      } else {
        idle += 1
      }
      index = (index + 1) % sourceCount
    }
    let inverse = inverseName.map { "'\($0)'" } ?? "the inverse side"
    guard total >= needed, total <= capacity else {
      throw failure(
        "cannot link \(sourceCount) \(entity) objects (\(source) each) with \(destinationCount) \(relationship.destinationEntityName) objects within the counts \(inverse) allows (\(destinations.first.map { "\($0)" } ?? "") each)"
      )
    }

    // 3. Destination counts: minimums first, then evenly.
    let destinationOrder = random.shuffled(Array(0..<destinationCount))
    var taken = [Int](repeating: 0, count: destinationCount)
    var remaining = total
    for destination in destinationOrder where !destinations[destination].allowsNone {
      taken[destination] = destinations[destination].minimum
      remaining -= destinations[destination].minimum
    }
    while remaining > 0 {
      var progressed = false
      for destination in destinationOrder where remaining > 0 {
        let bounds = destinations[destination]
        let step = taken[destination] == 0 ? bounds.minimum : 1
        guard step <= remaining, taken[destination] + step <= min(bounds.maximum, sourceCount) else { continue }
        taken[destination] += step
        remaining -= step
        progressed = true
      }
      guard progressed else {
        throw failure(
          "cannot spread \(total) links over \(destinationCount) \(relationship.destinationEntityName) objects within the counts \(inverse) allows"
        )
      }
    }

    // 4. Pair the slots: each source's consecutive slots take destinations round by round.
    var destinationSlots: [Int] = []
    destinationSlots.reserveCapacity(total)
    var round = 0
    while destinationSlots.count < total {
      for destination in destinationOrder where taken[destination] > round { destinationSlots.append(destination) }
      round += 1
    }
    var sourceSlots: [Int] = []
    sourceSlots.reserveCapacity(total)
    for source in random.shuffled(Array(0..<sourceCount)) {
      sourceSlots += Array(repeating: source, count: counts[source])
    }
    try repair(sources: sourceSlots, destinations: &destinationSlots, sameObject: sameObject)
    return Array(zip(sourceSlots, destinationSlots))
  }

  /// Swaps destinations between slots until no source has one destination twice or itself.
  private func repair(sources: [Int], destinations: inout [Int], sameObject: (Int, Int) -> Bool) throws(SeedError) {
    var linked: [Int: Set<Int>] = [:]
    for (slot, source) in sources.enumerated() { linked[source, default: []].insert(destinations[slot]) }
    var seen: [Int: Set<Int>] = [:]
    for slot in sources.indices {
      let source = sources[slot]
      let destination = destinations[slot]
      if !sameObject(source, destination) && seen[source, default: []].insert(destination).inserted { continue }
      // Find another slot to swap with that suits both sources.
      var fixed = false
      for offset in 1..<max(sources.count, 2) {
        let other = (slot + offset) % sources.count
        let otherSource = sources[other]
        let otherDestination = destinations[other]
        guard otherSource != source, !linked[source, default: []].contains(otherDestination),
          !sameObject(source, otherDestination), !linked[otherSource, default: []].contains(destination),
          !sameObject(otherSource, destination)
        else { continue }
        if other < slot && seen[otherSource]?.contains(otherDestination) == true {
          seen[otherSource]?.remove(otherDestination)
          seen[otherSource]?.insert(destination)
        }
        destinations[slot] = otherDestination
        destinations[other] = destination
        linked[otherSource]?.remove(otherDestination)
        linked[otherSource, default: []].insert(destination)
        linked[source, default: []].insert(otherDestination)
        seen[source, default: []].insert(otherDestination)
        fixed = true
        break
      }
      guard fixed else {
        throw SeedError(
          entity: entity, property: relationship.name,
          message: "cannot link the objects without linking one to itself or twice to the same destination")
      }
    }
  }
}
