// combineLatest: the arities 2 to 8 are generated into `CombineLatest+arity.swift` by
// `scripts/rx/generate_combine_latest.py`; the collection form is in
// `CombineLatest+Collection.swift`.
//
// Semantics shared by every form (as RxSwift): a result is sent each time a source sends an
// element once every source has sent one; the sequence completes when every source completed,
// or, when a source sends an element while every other source completed and one of them never
// sent an element, at that moment; the first error ends it. Every source's events are handled
// under the sink's recursive lock, so the observer never sees two events at once, and an
// observer may feed a source again from inside `onNext`.
