; JSX component references (used by .js, .jsx and .tsx files): <TodoItem /> renders (instantiates) a
; component; lower-case tags are HTML elements.
(jsx_opening_element name: (identifier) @name.reference.class (#match? @name.reference.class "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @name.reference.class (#match? @name.reference.class "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name.reference.class))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name.reference.class))
