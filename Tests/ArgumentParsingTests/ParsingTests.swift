import Testing

@testable import ArgumentParsing

/// Every parsing feature, on slices of the real command lines.
@Suite struct ParsingTests {
  @Test func fixturesAreSound() {
    #expect(Fixtures.modelc.problems == [])
    #expect(Fixtures.task.problems == [])
  }

  @Test func nestedSubcommandsWithPositionalOptionsAndFlags() throws {
    let parsed = try Fixtures.run(
      Fixtures.modelc, ["store", "create", "Tasks.sqlite", "--model", "Tasks.xcdatamodeld", "--dry-run"])
    #expect(parsed.commandPath == ["modelc", "store", "create"])
    #expect(parsed.subcommandPath == ["store", "create"])
    #expect(parsed.command.name == "create")
    #expect(parsed.value("STORE") == "Tasks.sqlite")
    #expect(parsed.positional(0) == "Tasks.sqlite")
    #expect(parsed.positional(1) == nil)
    #expect(parsed.value("--model") == "Tasks.xcdatamodeld")
    #expect(parsed.value("--version") == nil)
    #expect(parsed.flag("--dry-run"))
    #expect(!parsed.flag("--verbose"))
  }

  @Test func equalsFormShortNamesAndOptionsBeforePositionals() throws {
    let parsed = try Fixtures.run(
      Fixtures.modelc, ["-v", "store", "create", "-m", "M.xcdatamodel", "--version=2", "S.sqlite"])
    #expect(parsed.flag("--verbose"))
    #expect(parsed.flag("-v"))
    #expect(parsed.value("--model") == "M.xcdatamodel")
    #expect(parsed.value("-m") == "M.xcdatamodel")
    #expect(parsed.value("--version") == "2")
    #expect(parsed.value("STORE") == "S.sqlite")
  }

  @Test func equalsFormKeepsLaterEqualsSignsAndEmptyValues() throws {
    let parsed = try Fixtures.run(
      Fixtures.modelc, ["fetch", "S", "--model", "M", "--entity=Task", "--where=title == 'a=b'", "--sort="])
    #expect(parsed.value("--where") == "title == 'a=b'")
    #expect(parsed.value("--sort") == "")
  }

  @Test func typedValuesAndDefaults() throws {
    let parsed = try Fixtures.run(
      Fixtures.modelc,
      ["fetch", "S", "--model", "M", "--entity", "Task", "--limit", "25", "--offset", "-3", "--count"])
    #expect(parsed.integer("--limit") == 25)
    #expect(parsed.integer("--offset") == -3)
    #expect(parsed.value("--format", as: FetchFormat.self) == .table)
    #expect(parsed.value("--format") == "table")
    #expect(!parsed.contains("--format"))
    #expect(parsed.contains("--limit"))
    #expect(parsed.flag("--count"))
    let json = try Fixtures.run(Fixtures.modelc, ["fetch", "S", "--model", "M", "--entity", "E", "--format", "json"])
    #expect(json.value("--format", as: FetchFormat.self) == .json)
  }

  @Test func repeatableOptionsCollectInOrder() throws {
    let parsed = try Fixtures.run(
      Fixtures.task, ["add", "Buy milk", "--due", "2026-01-01", "--priority", "high", "--tag", "a", "--tag=b"])
    #expect(parsed.value("TITLE") == "Buy milk")
    #expect(parsed.value("--due") == "2026-01-01")
    #expect(parsed.value("--priority", as: Priority.self) == .high)
    #expect(parsed.values("--tag") == ["a", "b"])
    #expect(parsed.value("--tag") == "b")
    let none = try Fixtures.run(Fixtures.task, ["add", "x"])
    #expect(none.values("--tag") == [])
    #expect(none.value("--priority", as: Priority.self) == nil)
  }

  @Test func variadicPositionals() throws {
    let parsed = try Fixtures.run(Fixtures.modelc, ["validate", "A.xcdatamodel", "B.xcdatamodel", "C.xcdatamodeld"])
    #expect(parsed.values("MODEL") == ["A.xcdatamodel", "B.xcdatamodel", "C.xcdatamodeld"])
    #expect(parsed.positionals == ["A.xcdatamodel", "B.xcdatamodel", "C.xcdatamodeld"])
    let ids = try Fixtures.run(Fixtures.task, ["delete", "3", "-1", "12"])
    #expect(ids.integers("ID") == [3, -1, 12])
  }

  @Test func optionalPositionals() throws {
    let without = try Fixtures.run(Fixtures.modelc, ["store", "import", "S.sqlite"])
    #expect(without.value("FILE") == nil)
    #expect(!without.contains("FILE"))
    let with = try Fixtures.run(Fixtures.modelc, ["store", "import", "S.sqlite", "-"])
    #expect(with.value("FILE") == "-")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try Fixtures.run(Fixtures.modelc, ["validate", "--format", "json", "--", "--weird.xcdatamodel", "-h"])
    #expect(parsed.values("MODEL") == ["--weird.xcdatamodel", "-h"])
    #expect(parsed.value("--format") == "json")
  }

  @Test func negatedFlagAndExclusiveGroups() throws {
    let parsed = try Fixtures.run(Fixtures.task, ["edit", "7", "--no-due"])
    #expect(parsed.integer("ID") == 7)
    #expect(parsed.flag("--no-due"))
    #expect(parsed.value("--due") == nil)
    #expect(try Fixtures.run(Fixtures.task, ["list", "--done"]).flag("--done"))
    #expect(try !Fixtures.run(Fixtures.task, ["list"]).flag("--pending"))
  }

  @Test func repeatedFlagsAreHarmless() throws {
    #expect(try Fixtures.run(Fixtures.task, ["list", "--done", "--done"]).flag("--done"))
  }

  @Test func helpAnywhereBeforeDoubleDash() throws {
    for arguments in [["-h"], ["--help"], ["store", "--help"], ["store", "create", "S", "-h"]] {
      guard case .help(let text) = try Fixtures.modelc.parse(arguments) else {
        Issue.record("expected help for \(arguments)")
        continue
      }
      let path = ["modelc"] + arguments.filter { !$0.hasPrefix("-") && $0 != "S" }
      #expect(text.contains("Usage: \(path.joined(separator: " "))"))
    }
  }

  @Test func helpWinsOverLaterMistakes() throws {
    guard case .help = try Fixtures.modelc.parse(["validate", "--help", "--frobnicate"]) else {
      Issue.record("expected help")
      return
    }
  }
}
