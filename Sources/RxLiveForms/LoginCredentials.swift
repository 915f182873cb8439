/// The username and password a login session's inputs last carried.
///
/// Written by the session's input bindings and read when the view model asks its
/// service, both on the session's loop thread.
final class LoginCredentials {
    var username = ""
    var password = ""
}
