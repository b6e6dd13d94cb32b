import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Version ordering")
struct VersionOrderingTests {
  /// Sorts several shuffles of `expected` and checks each comes out as `expected`.
  private func expectOrder(
    _ expected: [String], bundle: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    var generator = SplitMix64(seed: UInt64(expected.count))
    for _ in 0..<5 {
      let sorted = VersionOrdering.sorted(expected.shuffled(using: &generator), bundleName: bundle)
      #expect(sorted == expected, sourceLocation: sourceLocation)
    }
    #expect(VersionOrdering.sorted(expected.reversed(), bundleName: bundle) == expected, sourceLocation: sourceLocation)
  }

  @Test("Xcode's default names: Model, Model 2 … Model 117 (not Model 10 before Model 2)")
  func xcodeDefaultNames() {
    expectOrder(["Model"] + (2...117).map { "Model \($0)" }, bundle: "Model")
  }

  @Test("Olvid's ObvEngine-v2 … ObvEngine-v60 after the bundle-named first version")
  func dashVNumbers() {
    expectOrder(["ObvEngine"] + (2...60).map { "ObvEngine-v\($0)" }, bundle: "ObvEngine")
  }

  @Test("Dotted version numbers compare part by part: 0.6 < 0.6.7 < 0.6.8 < 0.6.10 < 0.7")
  func dottedVersions() {
    expectOrder(
      ["0.5", "0.6", "0.6.7", "0.6.8", "0.6.10", "0.7", "0.7.1", "0.8", "0.8.2", "0.8.3", "0.9", "0.10", "1.0"],
      bundle: "Aidoku")
  }

  @Test("Numbers glued to text: zmessaging2.9.0 < zmessaging2.99.0 < zmessaging2.100.0 < zmessaging2.101.0")
  func gluedNumbers() {
    expectOrder(
      [
        "zmessaging", "zmessaging2.9.0", "zmessaging2.99.0", "zmessaging2.100.0", "zmessaging2.101.0",
        "zmessaging3.0.0",
      ],
      bundle: "zmessaging")
  }

  @Test("Underscore suffixes: Model_0 < Model_1 < Model_2 < Model_10")
  func underscoreNumbers() {
    expectOrder(["Model_0", "Model_1", "Model_2", "Model_10"], bundle: "Model")
    expectOrder(["CDEEventStoreModel_0", "CDEEventStoreModel_1", "CDEEventStoreModel_2"], bundle: "CDEEventStoreModel")
  }

  @Test("Sub-versions: SampleModel3 < SampleModel3_v2 < SampleModel4")
  func subVersions() {
    expectOrder(
      ["SampleModel", "SampleModel2", "SampleModel3", "SampleModel3_v2", "SampleModel3_v10", "SampleModel4"],
      bundle: "SampleModel")
  }

  @Test("The version named like the bundle comes first, whatever its name sorts as")
  func bundleNamedFirst() {
    expectOrder(["Zeta", "Alpha", "Zeta 2"], bundle: "Zeta")
    expectOrder(["Model", "Model 2", "Modelv4"], bundle: "Model")
    expectOrder(["Advanced.EvolutionDemo.V1", "Advanced.EvolutionDemo.V2"], bundle: "Advanced.EvolutionDemo.V1")
    expectOrder(["Advanced.EvolutionDemo", "Advanced.EvolutionDemo.V2"], bundle: "Advanced.EvolutionDemo")
  }

  @Test("Text compares without regard to case; leading zeros and exact spelling break ties")
  func tieBreaks() {
    expectOrder(["model 1", "Model 2", "MODEL 3"], bundle: "Other")
    expectOrder(["Model 1", "Model 2", "Model 02", "Model 002", "Model 3"], bundle: "Other")
    expectOrder(["Model 1", "model 1"], bundle: "Other")
  }

  @Test("Numbers beyond 64 bits still order by value")
  func hugeNumbers() {
    expectOrder(
      ["Model 9", "Model 99999999999999999999", "Model 100000000000000000000", "Model 100000000000000000001"],
      bundle: "Other")
  }

  @Test("A number sorts before text at the same place")
  func numbersBeforeText() {
    expectOrder(["0.9", "Shared"], bundle: "Aidoku")
    expectOrder(["Model 2", "Model Final"], bundle: "Other")
  }

  @Test("naturalCompare is negative, zero or positive")
  func naturalCompare() {
    #expect(VersionOrdering.naturalCompare("a2", "a10") < 0)
    #expect(VersionOrdering.naturalCompare("a10", "a2") > 0)
    #expect(VersionOrdering.naturalCompare("A2", "a2") == 0)
    #expect(VersionOrdering.naturalCompare("", "") == 0)
    #expect(VersionOrdering.naturalCompare("", "a") < 0)
    #expect(VersionOrdering.naturalCompare("1", "a") < 0)
  }

  @Test("precedes is a strict total order")
  func strictOrder() {
    let names = ["Model", "model", "Model 2", "Model 02", "Model_2", "0.6", "0.6.10", "Shared", "", "Ä 1", "Ä 2"]
    for a in names {
      #expect(!VersionOrdering.precedes(a, a, bundleName: "Model"))
      for b in names where a != b {
        #expect(
          VersionOrdering.precedes(a, b, bundleName: "Model") != VersionOrdering.precedes(b, a, bundleName: "Model"),
          "\(a) vs \(b)")
        for c in names
        where VersionOrdering.precedes(a, b, bundleName: "Model") && VersionOrdering.precedes(b, c, bundleName: "Model")
        {
          #expect(VersionOrdering.precedes(a, c, bundleName: "Model"), "\(a) < \(b) < \(c)")
        }
      }
    }
  }

  @Test(
    "Real bundles from the corpus come out in their migration order",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func corpusOrders() throws {
    let models = try #require(TestPaths.corpus).appendingPathComponent("models")
    // The names of the version directories, sorted as the reader sorts them (reading the
    // contents of 135 olvid versions is not needed to test their order).
    func versions(_ bundle: String) throws -> [String] {
      let url = models.appendingPathComponent(bundle)
      let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
      return VersionOrdering.sorted(names, bundleName: url.deletingPathExtension().lastPathComponent)
    }
    #expect(
      try versions("olvid-io__olvid-ios/ObvEngine.xcdatamodeld") == ["ObvEngine"] + (2...60).map { "ObvEngine-v\($0)" })
    #expect(
      try versions("olvid-io__olvid-ios/ObvMessenger.xcdatamodeld") == ["ObvMessenger"]
        + (2...75).map { "ObvMessenger \($0)" })
    #expect(
      try versions("mastodon__mastodon-ios/CoreData.xcdatamodeld") == ["CoreData"] + (2...9).map { "CoreData \($0)" })
    #expect(try versions("Automattic__simplenote-ios/Simplenote.xcdatamodeld") == (2...7).map { "Simplenote \($0)" })
    #expect(try versions("drewmccormack__ensembles/Model.xcdatamodeld") == ["Model_0", "Model_1"])
    #expect(try versions("LoopKit__LoopKit/Model.xcdatamodeld") == ["Model", "Modelv4"])
    // Aidoku's first version is named "Shared" (the bundle was renamed): natural order cannot know,
    // so it sorts last; a .modelc-versions file in the bundle is the way to fix such an order.
    #expect(
      try versions("Aidoku__Aidoku/Aidoku.xcdatamodeld") == [
        "0.5", "0.6", "0.6.7", "0.6.8", "0.6.10", "0.7", "0.7.1", "0.8", "0.8.2", "0.8.3", "0.9", "Shared",
      ])
  }
}
