import Foundation
import Persistence

/// The object graph the evaluation tests run against: a task with attributes of every kind,
/// to-one and to-many relationships, and collection attributes.
enum Fixtures {
  static let taskID = UUID(uuidString: "0F5C4C35-5F1A-4D8B-9B53-6A1E4E0C7A11")!
  static let link = URL(string: "https://example.com/task/1")!
  static let blob = Data([1, 2, 3])

  static func uri(_ entity: String, _ number: Int) -> URL {
    URL(string: "x-coredata://STORE/\(entity)/p\(number)")!
  }

  static let owner = Record(["name": .value("Ann")], identity: .url(uri("Person", 1)))
  static let project = Record(
    ["name": .value("Inbox"), "owner": .object(owner)], identity: .url(uri("Project", 1)))
  static let swiftTag = Record(["name": .value("Swift")], identity: .url(uri("Tag", 1)))
  static let cafeTag = Record(["name": .value("Café")], identity: .url(uri("Tag", 2)))
  static let unnamedTag = Record(["name": .null], identity: .url(uri("Tag", 3)))

  static let task = Record([
    "title": .value("Café au lait"),
    "notes": .null,
    "priority": .value(3),
    "score": .value(2.5),
    "budget": .value(Decimal(string: "10.50")!),
    "done": .value(false),
    "due": .value(date(1000)),
    "id": .value(taskID),
    "link": .value(link),
    "blob": .value(blob),
    "project": .object(project),
    "orphan": .null,
    "tags": .objects([swiftTag, cafeTag, unnamedTag]),
    "noTags": .objects([]),
    "items": .objects([
      Record(["price": .value(2), "qty": .value(1)]),
      Record(["price": .value(3.5), "qty": .value(2)]),
      Record(["price": .null, "qty": .null]),
    ]),
    "subtasks": .objects([
      Record(["done": .value(true), "priority": .value(1), "tags": .objects([swiftTag])]),
      Record(["done": .value(false), "priority": .value(5), "tags": .objects([cafeTag, swiftTag])]),
    ]),
    "scores": .scalars([1, 2, 3]),
    "words": .scalars(["a", "b"]),
  ])
}
