//! Windowed LT codec (Strokkur). Built out in its own issue.
