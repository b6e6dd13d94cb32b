import Foundation

extension FetchSortDescriptor {
  /// Sorts objects by a list of descriptors, the first being the primary key.
  ///
  /// Each object's sort keys are read once. Objects whose keys are all equal are ordered by
  /// `tieBreaker` when one is given (the object layer passes one that compares primary keys,
  /// matching the SQL store's final `ORDER BY Z_PK`), and otherwise keep their input order.
  ///
  /// - Throws: As ``sortKey(of:)``.
  public static func sorted<Element: PredicateEvaluable>(
    _ elements: some Sequence<Element>,
    using descriptors: [FetchSortDescriptor],
    tieBreaker: ((Element, Element) -> ComparisonResult)? = nil
  ) throws -> [Element] {
    try sorted(Array(elements), using: descriptors, object: { $0 }, tieBreaker: tieBreaker)
  }

  /// Sorts objects of mixed types by a list of descriptors (see the generic overload).
  ///
  /// - Throws: As ``sortKey(of:)``.
  public static func sorted(
    _ elements: [any PredicateEvaluable],
    using descriptors: [FetchSortDescriptor],
    tieBreaker: ((any PredicateEvaluable, any PredicateEvaluable) -> ComparisonResult)? = nil
  ) throws -> [any PredicateEvaluable] {
    try sorted(elements, using: descriptors, object: { $0 }, tieBreaker: tieBreaker)
  }

  /// Compares two objects by a list of descriptors, the first deciding unless it finds them equal.
  ///
  /// - Throws: As ``sortKey(of:)``.
  public static func compare(
    _ lhs: any PredicateEvaluable, _ rhs: any PredicateEvaluable, using descriptors: [FetchSortDescriptor]
  ) throws -> ComparisonResult {
    for descriptor in descriptors {
      let result = try descriptor.compare(lhs, rhs)
      if result != .orderedSame { return result }
    }
    return .orderedSame
  }

  private static func sorted<Element>(
    _ elements: [Element],
    using descriptors: [FetchSortDescriptor],
    object: (Element) -> any PredicateEvaluable,
    tieBreaker: ((Element, Element) -> ComparisonResult)?
  ) throws -> [Element] {
    let keys = try elements.map { element in try descriptors.map { try $0.sortKey(of: object(element)) } }
    let order = elements.indices.sorted { a, b in
      for (index, descriptor) in descriptors.enumerated() {
        let result = descriptor.compareValues(keys[a][index], keys[b][index])
        if result != .orderedSame { return result == .orderedAscending }
      }
      if let tieBreaker {
        let result = tieBreaker(elements[a], elements[b])
        if result != .orderedSame { return result == .orderedAscending }
      }
      return a < b
    }
    return order.map { elements[$0] }
  }
}
