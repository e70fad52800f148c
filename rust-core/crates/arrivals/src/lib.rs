//! The arrival log in the tickets encoding. Built out in its own issue.
