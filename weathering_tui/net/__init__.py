"""Playing together: the table protocol, the table server and its clients."""
