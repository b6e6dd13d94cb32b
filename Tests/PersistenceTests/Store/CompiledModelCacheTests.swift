import DataModel
import Foundation
import Testing

@testable import Persistence

/// Model versions are compiled for the store once per process and shared by every container
/// of that version.
@Suite("Compiled model cache")
struct CompiledModelCacheTests {
  private func version(_ name: String) -> ModelVersion {
    ContextFixtures.model(
      """
      <entity name="Note" representedClassName="Note" syncable="YES">
        <attribute name="text" optional="YES" attributeType="String"/>
      </entity>
      """, name: name)
  }

  @Test("An equal version is compiled once; another version is compiled apart")
  func sharedByValue() {
    let cache = CompiledModelCache(capacity: 4)
    let first = cache.compiled(version("A"))
    // Read again: equal by value, with storage of its own.
    #expect(cache.compiled(version("A")) === first)
    let other = cache.compiled(version("B"))
    #expect(other !== first)
    #expect(other.model.name == "B")
    #expect(cache.count == 2)
  }

  @Test("The least recently used version leaves a full cache")
  func evictsLeastRecentlyUsed() {
    let cache = CompiledModelCache(capacity: 2)
    let a = cache.compiled(version("A"))
    let b = cache.compiled(version("B"))
    #expect(cache.compiled(version("A")) === a)  // A is now the most recent
    _ = cache.compiled(version("C"))  // evicts B
    #expect(cache.count == 2)
    #expect(cache.compiled(version("A")) === a)
    #expect(cache.compiled(version("B")) !== b)
  }

  @Test("Threads asking at once all get one compiled version")
  func concurrent() async {
    let cache = CompiledModelCache(capacity: 4)
    let model = version("A")
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<16 { group.addTask { ObjectIdentifier(cache.compiled(model)) } }
      var all: [ObjectIdentifier] = []
      for await identity in group { all.append(identity) }
      return all
    }
    #expect(identities.count == 16)
    #expect(cache.count == 1)
    // Threads that compiled at once may have had results of their own; the cache kept one of
    // them, and every later call gets it.
    let kept = ObjectIdentifier(cache.compiled(model))
    #expect(identities.contains(kept))
    #expect(ObjectIdentifier(cache.compiled(model)) == kept)
  }

  @Test("Containers of one version share its layouts")
  func containersShare() throws {
    let one = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .inMemory)
    let two = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .inMemory)
    #expect(one.storeDescription.layouts === two.storeDescription.layouts)
    // Each keeps its own store.
    let context = one.newContext()
    try ContextFixtures.insertTask(context, title: "Only in one")
    try context.save()
    #expect(try two.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 0)
  }
}
