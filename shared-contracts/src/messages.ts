/**
 * Every message text the two specs fix (their validation rules and error catalogues), kept
 * word for word. Forms and the API's DTOs take their texts from here so that both say the same.
 */
import { PASSWORD_RULE_MESSAGE, STAFF_PASSWORD_RULE_MESSAGE } from './password';

export const VALIDATION_MESSAGES = {
  fullNameRequired: 'Full Name is required',
  staffFullNameRequired: 'FullName is required',
  phoneRequired: 'Phone number is required',
  profilePhoneRequired: 'Phone Number is required',
  phoneInvalid: 'Invalid phone number format',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  countyRequired: 'County is required',
  streetAddressRequired: 'Street Address is required',
  passwordRequired: 'Password is required',
  passwordRule: PASSWORD_RULE_MESSAGE,
  staffPasswordRule: STAFF_PASSWORD_RULE_MESSAGE,
  passwordsDoNotMatch: 'Passwords do not match',
  passwordDoNotMatch: 'Password do not match',
  oldPasswordRequired: 'Old Password is required',
  newPasswordRequired: 'New Password is required',
  confirmPasswordRequired: 'Confirm Password is required',
  paymentMethodRequired: 'Payment method is required',
  amountRequired: 'Amount is required',
  transactionCodeRequired: 'Transaction code is required',
  timePaidRequired: 'Time paid is required',
  productNameRequired: 'Product Name is required',
  descriptionRequired: 'Description is required',
  priceNumber: 'Price must be a number',
  priceRequired: 'Price is required',
  quantityNumber: 'Quantity must be a number',
  quantityRequired: 'Quantity is required',
  categoryRequired: 'Category is required',
  offerPriceNumber: 'Offer Price must be a number',
  offerPriceRequired: 'Offer Price is required',
  offerModalOfferPriceRequired: 'offerPrice is required',
} as const;

/** Texts the storefront shows for states and failures. */
export const STOREFRONT_MESSAGES = {
  somethingWentWrongList: 'Something went wrong...',
  somethingWentWrong: 'Something went wrong',
  noFeaturedProducts: 'No products found.',
  noProductsInCategory: 'No products found for this category.',
  cartEmpty: 'Your cart is empty.',
  trackingError: 'Error fetching order. Please check your confirmation number.',
  loginError: 'An error occurred logging in',
  tryAgain: 'An error occurred. Try Again!',
  profileUpdateError: 'An error occurred while updating profile',
  changePasswordError: 'error changing password',
  tokenMissing: 'Token not found in local storage',
  noOrders: 'No orders found.',
  notFound: '404, the page you are looking for cannot be found!',
  deleteCartItemConfirm: 'Are you sure removing this item from your shopping cart?',
} as const;

/** Texts the back office shows for states and failures. */
export const BACKOFFICE_MESSAGES = {
  listError: 'something went wrong...',
  productPageError: 'Something went wrong...',
  somethingWentWrong: 'Something went wrong',
  inTransitError: 'An error occured when moving in transit',
  completeOrderError: 'An error occured while completing order',
  cancelError: 'An error occured while Cancelling',
  deleteError: 'An error occured while deleting',
  deactivateError: 'An error occurred while deactivating',
  restoreError: 'An error occurred while restoring',
  profileUpdateError: 'An error occurred while updating profile',
  productUploadError: 'Error uploading product',
  genericError: 'An error occurred',
  categorySaveError: 'something went wrong',
  categoryDeleteError: 'error while deleting category',
  loginError: 'An error occurred logging in',
  tryAgain: 'An error occurred. Try Again!',
  editStaffError: 'An error occured while editing staff',
  noProducts: 'No products found.',
  noCategories: 'no category to display...',
  noOrders: 'No orders found.',
  noAudits: 'no audits to display',
  notFound: '404, the page you are looking for cannot be found!',
} as const;
