import Testing

@testable import Persistence

@Suite("Layout helpers")
struct LayoutHelperTests {
  @Test("CFString's hash, as Core Foundation computes it on 64-bit platforms")
  func cfStringHash() {
    // Values from an independent implementation of __CFStrHashCharacters.
    #expect(PropertyHashOrder.hash("title") == 19_621_076_582_151)
    #expect(PropertyHashOrder.hash("") == 0)
    #expect(PropertyHashOrder.hash("uuid") % 13 == 6)
    #expect(PropertyHashOrder.hash("url") % 13 == 12)
  }

  @Test("Bookmarks V2: uuid before url, as Core Data created them")
  func bookmarksOrder() {
    let names = ["isFavorite", "isFolder", "title", "url", "uuid", "children", "favoriteFolder", "favorites", "parent"]
    #expect(PropertyHashOrder.order(selected: ["url", "uuid"], allNames: names) == ["uuid", "url"])
  }

  @Test("Identifiers stay bare unless SQLite could not read them bare")
  func quoting() {
    #expect(StoreIdentifier.sql("ZTASK") == "ZTASK")
    #expect(StoreIdentifier.sql("Z_Task_byPriorityAndDueDate") == "Z_Task_byPriorityAndDueDate")
    #expect(StoreIdentifier.sql("ZGRÖSSE") == "ZGRÖSSE")
    #expect(StoreIdentifier.sql("Z_Task_by date") == "\"Z_Task_by date\"")
    #expect(StoreIdentifier.sql("Z_Task_\"x\"") == "\"Z_Task_\"\"x\"\"\"")
    #expect(StoreIdentifier.sql("1ABC") == "\"1ABC\"")
    #expect(StoreIdentifier.sql("") == "\"\"")
  }
}
