// The API documentation page (/docs): Swagger UI on the server's OpenAPI document, from local files.
window.ui = SwaggerUIBundle({ // eslint-disable-line no-undef
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null, // no badge fetched from another site
  presets: [SwaggerUIBundle.presets.apis], // eslint-disable-line no-undef
  layout: "BaseLayout",
});
