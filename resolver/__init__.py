"""resolver: dynamic_params for knowledge-network logic properties."""
