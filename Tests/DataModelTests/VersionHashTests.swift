import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Version hashes")
struct VersionHashTests {
  @Test("SHA-256 and SHA-512 match the FIPS 180-4 examples")
  func digestsMatchKnownAnswers() {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(SHA512.hash(Array("abc".utf8)))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    )
    #expect(
      hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test(
    "Entity hashes and digest equal those Core Data stored for LoopKit's model",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func loopKitVectors() throws {
    let path = TestPaths.corpus!.appendingPathComponent("models/LoopKit__LoopKit/Model.xcdatamodeld").path
    let bundle = try ModelBundle(contentsOf: path)
    let version = try #require(bundle.version(named: "Model"))
    let hashes = version.versionHashes
    let expected = [
      "CachedCarbObject": "ae31955ac7c9c33da2967cf5d2ba1408f666f2587f2dd5c2e6c403b8f31c2410",
      "CachedGlucoseObject": "95166c02bee5c8e2b6b22dd0b262b6c6cb8af490789ca44994e083ec3faa665d",
      "CachedInsulinDeliveryObject": "d3e85987177b5048884d4543944bb571b12494913cd6167ed8d317ee103aae32",
      "DeletedCarbObject": "77f0de22d0688e9853fcd7f895b6bbd98b767ecd32b9f98d9cc82022d15e9d8f",
      "PumpEvent": "481285b017a9d18b61212263a824b154a78f0397a38772d5df436e08e560c87d",
      "Reservoir": "8a4f26cc785a611680d874c9e05cc853bf448436f267bf8f02979b33a210bb14",
    ]
    for (entity, hash) in expected {
      #expect(hashes.hexHash(of: entity) == hash, "entity \(entity)")
    }
    #expect(
      hashes.digest == "JsiZ5pxZETDR/uBIDneH/yxMn0lMUZvn8v3/PhQW1d2kM5hl0AAO+DAsjh8ySII1XvFg+XdSlnByGkTkTWgI4w==")
  }

  /// Hashes read from the `Z_METADATA` of the Bookmarks stores Core Data wrote at each version.
  static let bookmarkVectors: [(version: String, hash: String, digest: String, checksum: String?)] = [
    (
      "BookmarksModel", "c37ad9b31a1ce3faf258164444717a730317dee04efa4191d31086d2179f9c20",
      "5KlKrVThxcoXSL+ZjFKY7n06yLOp+yhkgKcYEd/X2RK/9UmzKy8A4/X11PZ2vR9NjCIbeM7jNq9EoAHMv8yklQ==", nil
    ),
    (
      "BookmarksModel 2", "99d650930f7e484410207feedd129b42f5e7acff83ab6a9bf61b9a6d88bdd382",
      "KOVMA003UkROpjwLxlVoeHbPbvDabq7nYfdZdUSoYMGLW4Xy6kfgM5kIQvWOkrIG9JycFVi/ysBgUAZn26pZOQ==", nil
    ),
    (
      "BookmarksModel 3", "698b764beb72a2bc90217ab9a670d90d9ce1663b71c15f675ccbfb46e7ff76a5",
      "mq5DOodApwPsMEHT6e5vsvPfz1B8zAjCiVT0RFpxep6WIXFnTAakSGDtSyuSxMR71IS2NbpOAtTRaEstvviG1w==", nil
    ),
    (
      "BookmarksModel 4", "6a086c9544c0adc6674e37b1a2cd4bc7edcd94de224c61fc603864844cb5f8f6",
      "f3zhRcli1vU1KL1eGWk+BkpW5eZLLlkgDMaIRfi7mC3a9eGmHvJvEoHfMAaXAYLC9Ua3nas4g1P8aXw0xiQM2g==",
      "iheL242Wk4NBM9JCcDWZC7hP4J9Hv8iA7W0XzuNEkZc="
    ),
    (
      "BookmarksModel 5", "84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929",
      "9WYf7a2enJKaL4wKAAgYwqyHAEQ12ZaJfnpBLqnbp6yzamL1LLxv+wKyoakpQaDZU1UTXD12xSVlsn0gDkf/oQ==", nil
    ),
  ]

  @Test(
    "Hashes equal those Core Data stored in the Bookmarks stores of every version",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func bookmarkVectors() throws {
    let path = TestPaths.corpus!.appendingPathComponent(
      "models/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld"
    ).path
    let bundle = try ModelBundle(contentsOf: path)
    for vector in Self.bookmarkVectors {
      let version = try #require(bundle.version(named: vector.version))
      let hashes = version.versionHashes
      #expect(hashes.hexHash(of: "BookmarkEntity") == vector.hash, "\(vector.version)")
      #expect(hashes.digest == vector.digest, "\(vector.version)")
      if let checksum = vector.checksum {
        #expect(hashes.checksum == checksum, "\(vector.version)")
      }
    }
  }
}
