import DataModel
import Foundation
import Testing

@testable import Persistence

#if canImport(Glibc)
  /// glibc's `malloc_usable_size` (in `<malloc.h>`, which the Glibc module leaves out).
  @_silgen_name("malloc_usable_size")
  private func mallocUsableSize(_ block: UnsafeMutableRawPointer) -> Int
#endif

/// The size of an object, which decides how the C allocator frees it.
///
/// A fetch makes an object per row and a context frees them together. glibc frees blocks of up
/// to 120 bytes through its fast bins (a push on a list); larger ones are merged with their
/// neighbours one by one, which was a quarter of `fetch-all` (docs/benchmarks.md). Keeping the
/// committed-values record one word (``CommittedAttributes`` boxes its one-slot case) and the
/// change slot 32 bits beside the flags keeps objects within that size; the to-many values and
/// prefetched objects out of line (``ToManyState``, one word) keep them at 104 bytes, a block of
/// 112. A stored property added to ``ManagedObject`` shows here first.
@Suite("Object size")
struct ObjectSizeTests {
  @Test("The committed-values record is one word")
  func committedRecordIsOneWord() {
    #expect(MemoryLayout<CommittedAttributes>.size == MemoryLayout<Int>.size)
  }

  #if canImport(Glibc)
    @Test("An object is a block the allocator frees through its fast bins (104 bytes)")
    func objectFitsTheFastBins() throws {
      let container = try ContextFixtures.tasksContainer()
      let context = container.newContext()
      let task = try ContextFixtures.insertTask(context, title: "A", notes: "notes")
      try context.save()
      // After a save and a change, with every kind of value the object keeps.
      try task.setValue(.string("B"), forKey: "title")
      let block = Unmanaged.passUnretained(task).toOpaque()
      #expect(mallocUsableSize(block) <= 104)
    }
  #endif
}
