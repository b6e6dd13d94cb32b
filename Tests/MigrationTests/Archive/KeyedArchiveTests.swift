import Foundation
import Migration
import Persistence
import Testing

@Suite("Keyed archives")
struct KeyedArchiveTests {
  @Test("Objects, collections and scalars written by the writer read back")
  func roundTrip() throws {
    var writer = KeyedArchiveWriter()
    let root = writer.reserve()
    let name = writer.string("Car")
    let numbers = writer.array((0..<20).map { writer.scalar(.integer(Int64($0))) })
    let table = writer.dictionary([(key: writer.string("k"), value: writer.string("v"))])
    let date = writer.object(
      className: "NSDate", classHierarchy: ["NSDate", "NSObject"], fields: [("NS.time", .real(5))])
    writer.set(
      root, className: "Thing", classHierarchy: ["Thing", "NSObject"],
      fields: [
        ("name", name), ("numbers", numbers), ("table", table), ("when", date), ("flag", .bool(true)),
        ("self", root), ("nothing", KeyedArchiveWriter.null),
      ])
    let data = writer.data(root: root)
    let archive = try KeyedArchive(data: data)
    let object = try #require(try archive.root().object)
    #expect(object.className == "Thing")
    #expect(object.isKind(of: "NSObject"))
    #expect(try object.string(forKey: "name") == "Car")
    #expect(try object.array(forKey: "numbers")?.count == 20)
    #expect(try object.bool(forKey: "flag") == true)
    #expect(try object.value(forKey: "nothing") == nil)
    #expect(try object.object(forKey: "self")?.index == object.index)
    if case .date(let when)? = try object.value(forKey: "when") {
      #expect(when == Date(timeIntervalSinceReferenceDate: 5))
    } else {
      Issue.record("'when' is not a date")
    }
    if case .dictionary(let pairs)? = try object.value(forKey: "table") {
      #expect(pairs.first?.key.string == "k")
      #expect(pairs.first?.value.string == "v")
    } else {
      Issue.record("'table' is not a dictionary")
    }
    #expect(throws: PropertyListError.self) { try object.integer(forKey: "name") }
  }

  @Test("Property lists that are not keyed archives are refused")
  func notArchives() {
    let plain = BinaryPropertyList.encode(.array([.string("x")]))
    #expect(throws: PropertyListError.self) { try KeyedArchive(data: plain) }
    let wrongArchiver = BinaryPropertyList.encode(.dictionary([(key: .string("$archiver"), value: .string("Other"))]))
    #expect(throws: PropertyListError.self) { try KeyedArchive(data: wrongArchiver) }
    let danglingTop = BinaryPropertyList.encode(
      .dictionary([
        (key: .string("$archiver"), value: .string("NSKeyedArchiver")),
        (key: .string("$objects"), value: .array([.string("$null")])),
        (key: .string("$top"), value: .dictionary([(key: .string("root"), value: .uid(9))])),
      ]))
    #expect(throws: PropertyListError.self) { try KeyedArchive(data: danglingTop) }
  }
}
