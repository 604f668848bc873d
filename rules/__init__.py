"""Pure validators for metric and operator dynamic_params."""
