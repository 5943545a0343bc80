// SecItem-shaped API tests come with the API.
