/// Every rule `modelc check` knows, in the order `docs/rules.md` lists them.
public enum RuleCatalogue {
  /// `invalid-model`: what `modelc validate` reports as an error.
  public static let invalidModel = CheckRule(
    id: "invalid-model", defaultSeverity: .error,
    shortDescription: "The model has an error that Xcode refuses (what `modelc validate` reports).",
    help: "Fix the model as the message says; `modelc validate MODEL` lists every problem with its fix.")

  /// `step-not-inferable`: lightweight migration refuses a step and no mapping model covers it.
  public static let stepNotInferable = CheckRule(
    id: "step-not-inferable", defaultSeverity: .error,
    shortDescription: "A version step that lightweight migration cannot infer and no mapping model covers.",
    help:
      "Stores at the older version will fail to open. Split the change into steps inference can do, or add a mapping model for the step."
  )

  /// `required-without-default`: a required attribute added, or an attribute made required, with
  /// no default value.
  public static let requiredWithoutDefault = CheckRule(
    id: "required-without-default", defaultSeverity: .error,
    shortDescription: "An attribute added as required, or made required, without a default value.",
    help: "Existing objects have no value for it. Give the attribute a default value or keep it optional.")

  /// `type-change`: an attribute's type changed.
  public static let typeChange = CheckRule(
    id: "type-change", defaultSeverity: .warning,
    shortDescription: "An attribute's type changed.",
    help:
      "Lightweight migration cannot convert values. Add a new attribute, copy the values in a mapping model, then remove the old one."
  )

  /// `data-loss`: stored values dropped by a step (with `--store`, counted).
  public static let dataLoss = CheckRule(
    id: "data-loss", defaultSeverity: .warning,
    shortDescription:
      "An entity, attribute or relationship removed, or a to-many made to-one, so stored values are dropped.",
    help:
      "Make sure the data is no longer needed; to keep it under a new name, set the renaming identifier instead of removing and adding."
  )

  /// `possible-rename`: a property or entity removed and a similar one added without a renaming
  /// identifier.
  public static let possibleRename = CheckRule(
    id: "possible-rename", defaultSeverity: .warning,
    shortDescription:
      "A property or entity removed and another added in the same step that look like a rename, without a renaming identifier.",
    help:
      "Without a renaming identifier the old values are dropped and the new property starts empty. Set the renaming identifier (elementID) to the old name."
  )

  /// `released-version-edited`: with `--against`, a version that existed at the ref has changed.
  public static let releasedVersionEdited = CheckRule(
    id: "released-version-edited", defaultSeverity: .error,
    shortDescription:
      "A version that exists at the compared ref was edited so its version hashes changed, was deleted, was reordered, or the current version moved back.",
    help:
      "Stores written with the released version no longer match any version and fail to open. Revert the edit and make the change in a new model version."
  )

  /// `hash-unchanged-edit`: a change that does not change a version hash, so it reaches new stores only.
  public static let hashUnchangedEdit = CheckRule(
    id: "hash-unchanged-edit", defaultSeverity: .note,
    shortDescription:
      "A change that leaves the version hashes equal (a default, validation, an index), so existing stores are not migrated.",
    help:
      "Existing stores keep their data and indexes as they are. If a migration was intended, set a versionHashModifier on the entity or property."
  )

  /// `mapping-orphaned`: a mapping model whose source or destination hashes match no version.
  public static let mappingOrphaned = CheckRule(
    id: "mapping-orphaned", defaultSeverity: .error,
    shortDescription:
      "A mapping model whose source or destination entity hashes match no version of the model, left behind by a later edit.",
    help: "Regenerate the mapping model for the versions as they are now, or delete it if the step no longer exists.")

  /// `mapping-invalid`: a mapping model that cannot be read or names what does not exist.
  public static let mappingInvalid = CheckRule(
    id: "mapping-invalid", defaultSeverity: .error,
    shortDescription:
      "A mapping model that cannot be read, or whose entity and property mappings name entities or properties the versions lack.",
    help: "Fix the mapping as the message says, or regenerate it from the two versions.")

  /// `not-downgradable`: a step whose new version cannot be migrated back by inference.
  public static let notDowngradable = CheckRule(
    id: "not-downgradable", defaultSeverity: .note,
    shortDescription:
      "A store at the newer version of a step cannot be migrated back to the older one by inference.",
    help: "An app rollback to the older version could not open stores the new version migrated. Plan the rollback path."
  )

  /// `data-nulls-in-required`: with `--store`, objects with no value where a step makes one required.
  public static let dataNullsInRequired = CheckRule(
    id: "data-nulls-in-required", defaultSeverity: .error,
    shortDescription: "Objects in the store with no value in an attribute that a later version makes required.",
    help: "The migration fails validation on these objects. Fill the values first, or keep the attribute optional.")

  /// `data-duplicates-in-unique`: with `--store`, values that break a new uniqueness constraint.
  public static let dataDuplicatesInUnique = CheckRule(
    id: "data-duplicates-in-unique", defaultSeverity: .error,
    shortDescription: "Objects in the store that share values a later version makes unique.",
    help: "The migration cannot build the unique index. Merge or change the duplicates first, or drop the constraint.")

  /// `data-out-of-range`: with `--store`, values outside new bounds.
  public static let dataOutOfRange = CheckRule(
    id: "data-out-of-range", defaultSeverity: .error,
    shortDescription: "Values in the store outside the minimum, maximum or length bounds a later version sets.",
    help: "Objects holding them fail validation when they are next saved. Fix the values or relax the bounds.")

  /// Every rule, in documentation order.
  public static let all: [CheckRule] = [
    invalidModel, stepNotInferable, requiredWithoutDefault, typeChange, dataLoss, possibleRename,
    releasedVersionEdited, hashUnchangedEdit, mappingOrphaned, mappingInvalid, notDowngradable,
    dataNullsInRequired, dataDuplicatesInUnique, dataOutOfRange,
  ]

  /// The rule with this identifier.
  public static func rule(id: String) -> CheckRule? {
    all.first { $0.id == id }
  }
}
