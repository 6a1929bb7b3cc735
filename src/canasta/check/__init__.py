"""The conflict checker: static checks of a variant, playouts, profile-file checks."""
