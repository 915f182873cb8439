import RxLive

// A test fixture (Tests/EndToEnd/test_record_replay.py): `rxlive`'s forms as a later build
// might declare them (`ChangedForms`), with the sum changed to add one. Replaying a recording
// of `rxlive` with this build's `replay` must name the first sum that differs.
RxLiveApp(name: "replay-fixture", abstract: "rxlive's forms with a changed sum, for the replay tests.") { _ in
    ChangedForms.viewModels()
}.main()
