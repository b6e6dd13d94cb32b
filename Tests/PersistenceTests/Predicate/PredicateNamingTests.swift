import Foundation
import Persistence
import Testing

/// Compiles only while Persistence's predicate types leave Foundation's `Predicate` and
/// `SortDescriptor` unambiguous in a file that imports both modules.
@Suite("Predicate naming")
struct PredicateNamingTests {
  @Test func foundationAndPersistenceNamesCoexist() throws {
    let foundationPredicate: Predicate<Int>? = nil
    let foundationSort: SortDescriptor<String>? = nil
    let fetchPredicate = try FetchPredicate(format: "SELF > %d", 2)
    let fetchSort = FetchSortDescriptor("title")
    #expect(foundationPredicate == nil && foundationSort == nil)
    #expect(try fetchPredicate.evaluate(withValue: .value(3)))
    #expect(fetchSort.ascending)
  }
}
