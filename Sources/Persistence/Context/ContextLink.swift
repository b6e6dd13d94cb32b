/// How objects reach their context: one link per context, shared by all its objects.
///
/// A weak reference per object would cost an atomic side-table operation each time an object
/// is made, read from and freed — for 100,000 fetched objects, a large share of the fetch. The
/// link holds the context without retaining it; the context clears it when it goes away, so an
/// object that outlives its context sees nil, as with a weak reference. Objects and their
/// context live in one isolation domain, so the link is never read while it is being cleared.
///
/// The link also keeps the context's layouts alive: every object holds its link, so an object's
/// layout, which the object does not retain (see ``ManagedObject/layout``), lives as long as the
/// object.
final class ContextLink {
  unowned(unsafe) var context: ObjectContext?
  /// The layouts of every object made through this link.
  let layouts: ObjectLayouts

  init(layouts: ObjectLayouts) {
    self.layouts = layouts
  }
}
